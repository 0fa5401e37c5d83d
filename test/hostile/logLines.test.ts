/**
 * A sample log the run did not write — committed in a pull request, or left in a cache — is
 * read line by line, but a line had no bound: one line of 2 GB without a newline grew the
 * line buffer until the memory ran out. A line of a sample log now holds at most
 * MAX_LOG_LINE_BYTES, refused with exit 2 naming the file and the line. And a record nested
 * 40,000 levels deep in an unknown field is bad input too, in `analyze` and in the resume of
 * `run`, like the same nesting in an items file.
 */
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ExitCode } from '../../src/errors.js';
import { MAX_LOG_LINE_BYTES } from '../../src/sampleLog/lineLimit.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type ChildResult, childCli } from '../support/childCli.js';
import { CHURN_SCENARIO, ITEMS } from '../support/smallRun.js';

const PEAK_MB = 500;
const GB = 1024 * 1024 * 1024;

/** The first two lines of a log a run wrote: its run record and a churn call record. */
const [RUN_LINE, CALL_LINE] = readFileSync(
  'test/fixtures/golden/churn-adaptive/samples.jsonl',
  'utf8',
).split('\n') as [string, string];

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
});
afterAll(async () => {
  await simulator.close();
});

function workspace(): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-log-lines-')));
  writeFileSync(
    path.join(dir, 'model-gate.yml'),
    stringify({
      models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
      provider: { host: simulator.url },
      runner: { concurrency: 2, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
      checks: ['churn'],
      churn: { items: ITEMS, samples: 2 },
    }),
  );
  return dir;
}

/** `lines` then 2 GB of zero bytes without a newline (a sparse file: nothing on the disk). */
function hugeLineLog(file: string, lines: string[]): void {
  writeFileSync(file, lines.map((line) => `${line}\n`).join(''));
  truncateSync(file, 2 * GB);
}

function deepRecord(): string {
  return CALL_LINE.replace(/}$/, `,"extra":${'['.repeat(40_000)}${']'.repeat(40_000)}}`);
}

function expectRefused(result: ChildResult, said: string): void {
  expect(result.code, result.stderr).toBe(ExitCode.badInput);
  expect(result.stderr).toContain(said);
  expect(result.stderr).not.toContain('internal error');
  expect(result.peakMb as number).toBeLessThan(PEAK_MB);
}

const requests = (): number => Object.values(simulator.stats().requests).reduce((a, b) => a + b, 0);

describe('the length of a line of a sample log', () => {
  it('is 16 MiB at most', () => {
    expect(MAX_LOG_LINE_BYTES).toBe(16 * 1024 * 1024);
  });

  it('analyze: a 2 GB line without a newline is refused, naming the file and the line', async () => {
    const dir = workspace();
    hugeLineLog(path.join(dir, 'samples.jsonl'), [RUN_LINE, CALL_LINE]);
    expectRefused(
      await childCli(['analyze', '--log', 'samples.jsonl', '--out', 'report'], dir),
      'samples.jsonl:3: a line of more than 16 MiB; a line of a sample log holds at most 16 MiB',
    );
  });

  it('run: a cached log with a 2 GB first line is refused before anything is asked', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'cache'));
    hugeLineLog(path.join(dir, 'cache', 'samples.jsonl'), []);
    const before = requests();
    expectRefused(
      await childCli(['run', '--limit', '2', '--cache-dir', 'cache'], dir),
      'samples.jsonl:1: a line of more than 16 MiB',
    );
    expect(requests()).toBe(before);
  });
});

describe('a record nested 40,000 levels deep', () => {
  it('analyze: exit 2 naming the line', async () => {
    const dir = workspace();
    writeFileSync(path.join(dir, 'samples.jsonl'), `${RUN_LINE}\n${deepRecord()}\n`);
    expectRefused(
      await childCli(['analyze', '--log', 'samples.jsonl', '--out', 'report'], dir),
      'samples.jsonl:2: nested too deeply',
    );
  });

  it('run: a cached log holding it is refused before anything is asked', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'cache'));
    writeFileSync(path.join(dir, 'cache', 'samples.jsonl'), `${RUN_LINE}\n${deepRecord()}\n`);
    const before = requests();
    expectRefused(
      await childCli(['run', '--limit', '2', '--cache-dir', 'cache'], dir),
      'samples.jsonl:2: nested too deeply',
    );
    expect(requests()).toBe(before);
  });
});

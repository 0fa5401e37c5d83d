/**
 * A pull request decides what lies in the checkout, links included. A link to /dev/zero (or a
 * named pipe) in place of the config, the items, the catalogue or a cached sample log passed
 * every size limit — the limits were checked on the size a file reports, and /dev/zero reports
 * 0 — and the process read more than 2.5 GB; a pipe blocked it for good. Every user file is
 * now opened one way (src/files/userFile.ts): a path inside the working folder leads to a file
 * inside it, only a regular file is read, and its bytes are counted while read. Each case runs
 * the CLI in a child process in a workspace of its own, with a deadline, and checks its peak
 * memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type ChildResult, childCli } from '../support/childCli.js';
import { CHURN_SCENARIO, ITEMS } from '../support/smallRun.js';

/** Peak memory allowed to a process handed a hostile file. */
const PEAK_MB = 500;

const ITEM_LINE =
  '{"id": "q1", "domain": "d", "question": "?", "choices": ["a", "b"], "answer": "A"}\n';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
});
afterAll(async () => {
  await simulator.close();
});

/** A fresh working folder (its real path: the rules compare real paths). */
function workspace(): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-special-')));
}

function config(dir: string, settings: Record<string, unknown>): void {
  writeFileSync(
    path.join(dir, 'model-gate.yml'),
    stringify({
      models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
      provider: { host: simulator.url },
      runner: { concurrency: 2, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
      ...settings,
    }),
  );
}

function fifo(file: string): void {
  execFileSync('mkfifo', [file]);
}

/** Refused as bad input, quickly, within the memory allowed, saying `said`. */
function expectRefused(result: ChildResult, said: string): void {
  expect(result.code, result.stderr).toBe(ExitCode.badInput);
  expect(result.stderr).toContain(said);
  expect(result.stderr).not.toContain('internal error');
  expect(result.peakMb).not.toBeNull();
  expect(result.peakMb as number).toBeLessThan(PEAK_MB);
}

describe('links to /dev/zero in the checkout', () => {
  it('model-gate.yml → /dev/zero: refused as a link out of the working folder', async () => {
    const dir = workspace();
    symlinkSync('/dev/zero', path.join(dir, 'model-gate.yml'));
    expectRefused(
      await childCli(['validate'], dir),
      'model-gate.yml: a link to /dev/zero, outside the working folder',
    );
  });

  it('items and persona catalogue → /dev/zero: refused, naming each', async () => {
    const dir = workspace();
    symlinkSync('/dev/zero', path.join(dir, 'items.jsonl'));
    config(dir, { checks: ['churn'], churn: { items: 'items.jsonl' } });
    expectRefused(await childCli(['validate'], dir), 'items.jsonl: a link to /dev/zero');

    const second = workspace();
    symlinkSync('/dev/zero', path.join(second, 'catalogue.yml'));
    config(second, { checks: ['personas'], personas: { catalogue: 'catalogue.yml' } });
    expectRefused(await childCli(['validate'], second), 'catalogue.yml: a link to /dev/zero');
  });

  it('a device named directly (outside the working folder) is refused as a device', async () => {
    const dir = workspace();
    expectRefused(
      await childCli(['validate', '--config', '/dev/zero'], dir),
      '/dev/zero: a device, not a file; a config file is read from a file',
    );
    config(dir, { checks: ['churn'], churn: { items: '/dev/zero' } });
    expectRefused(await childCli(['validate'], dir), '/dev/zero: a device, not a file');
  });

  it('a folder link on the way out is refused too; links that stay inside are followed', async () => {
    const outside = workspace();
    writeFileSync(path.join(outside, 'items.jsonl'), ITEM_LINE);
    const dir = workspace();
    symlinkSync(outside, path.join(dir, 'data'));
    config(dir, { checks: ['churn'], churn: { items: 'data/items.jsonl' } });
    expectRefused(await childCli(['validate'], dir), 'outside the working folder');

    const inside = workspace();
    mkdirSync(path.join(inside, 'sets'));
    writeFileSync(path.join(inside, 'sets', 'real.jsonl'), ITEM_LINE);
    symlinkSync(path.join(inside, 'sets', 'real.jsonl'), path.join(inside, 'items.jsonl'));
    config(inside, { checks: ['churn'], churn: { items: 'items.jsonl' } });
    const valid = await childCli(['validate'], inside);
    expect(valid.code, valid.stderr).toBe(ExitCode.pass);
  });
});

describe('named pipes: refused at once, never waited on', () => {
  it('a pipe as the config or the items file', async () => {
    const dir = workspace();
    fifo(path.join(dir, 'model-gate.yml'));
    const result = await childCli(['validate'], dir, 20_000);
    expectRefused(result, 'model-gate.yml: a named pipe, not a file');
    expect(result.seconds).toBeLessThan(15);

    const second = workspace();
    fifo(path.join(second, 'items.jsonl'));
    config(second, { checks: ['churn'], churn: { items: 'items.jsonl' } });
    expectRefused(await childCli(['validate'], second, 20_000), 'items.jsonl: a named pipe');
  });
});

describe('the sample log and its cache', () => {
  const runArgs = ['run', '--limit', '2'];

  it('a cached log → /dev/zero (a cache folder in the checkout): refused before anything is asked', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'cache'));
    symlinkSync('/dev/zero', path.join(dir, 'cache', 'samples.jsonl'));
    config(dir, { checks: ['churn'], churn: { items: ITEMS, samples: 2 } });
    const asked = () => Object.values(simulator.stats().requests).reduce((a, b) => a + b, 0);
    const before = asked();
    expectRefused(
      await childCli([...runArgs, '--cache-dir', 'cache'], dir),
      'samples.jsonl: a link to /dev/zero, outside the working folder',
    );
    expect(asked()).toBe(before);
  });

  it('a cached log or the run log as a named pipe', async () => {
    const dir = workspace();
    mkdirSync(path.join(dir, 'cache'));
    fifo(path.join(dir, 'cache', 'samples.jsonl'));
    config(dir, { checks: ['churn'], churn: { items: ITEMS, samples: 2 } });
    expectRefused(
      await childCli([...runArgs, '--cache-dir', 'cache'], dir, 20_000),
      'a named pipe',
    );

    const second = workspace();
    mkdirSync(path.join(second, 'model-gate-out'));
    fifo(path.join(second, 'model-gate-out', 'samples.jsonl'));
    config(second, { checks: ['churn'], churn: { items: ITEMS, samples: 2 } });
    expectRefused(await childCli(runArgs, second, 20_000), 'a named pipe');
  });

  it('analyze of a log → /dev/zero', async () => {
    const dir = workspace();
    symlinkSync('/dev/zero', path.join(dir, 'samples.jsonl'));
    config(dir, { checks: ['churn'], churn: { items: ITEMS } });
    expectRefused(
      await childCli(['analyze', '--log', 'samples.jsonl', '--out', 'report'], dir),
      'a link to /dev/zero',
    );
  });
});

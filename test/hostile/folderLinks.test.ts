/**
 * A pull request can commit a folder link where model-gate writes: `model-gate-out → ~/.config`
 * (the default output folder) sent every report file, the sample log and the charts outside the
 * working folder. A link on the way to a folder model-gate writes in, inside the working folder,
 * is refused (exit 2) before anything is measured or written; a folder outside the working
 * folder is the user's explicit choice and is taken as given, link or not.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode, InputError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/files/safeWrite.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { childCli } from '../support/childCli.js';
import { CHURN_SCENARIO, ITEMS } from '../support/smallRun.js';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
});
afterAll(async () => {
  await simulator.close();
});

function folder(prefix: string): string {
  return realpathSync(mkdtempSync(path.join(tmpdir(), `model-gate-${prefix}-`)));
}

/** A checkout with a config of a small churn run (`output` merged into its output block). */
function checkout(output: Record<string, unknown> = {}): string {
  const dir = folder('checkout');
  writeFileSync(
    path.join(dir, 'model-gate.yml'),
    stringify({
      models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
      provider: { host: simulator.url },
      runner: { concurrency: 2, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
      checks: ['churn'],
      churn: { items: ITEMS, samples: 2 },
      ...(Object.keys(output).length > 0 ? { output } : {}),
    }),
  );
  return dir;
}

const asked = () => Object.values(simulator.stats().requests).reduce((a, b) => a + b, 0);

describe('a folder link committed in the checkout', () => {
  it('model-gate-out → a folder outside: run refused (exit 2), nothing asked, nothing written there', async () => {
    const victim = folder('victim');
    const dir = checkout();
    symlinkSync(victim, path.join(dir, 'model-gate-out'));
    const before = asked();
    const run = await childCli(['run', '--limit', '2'], dir);
    expect(run.code, run.stderr).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(`${path.join(dir, 'model-gate-out')} is a symbolic link`);
    expect(run.stderr).toContain('writes nothing through a link in the working folder');
    expect(readdirSync(victim)).toEqual([]);
    expect(asked()).toBe(before);
  });

  it('a link higher up the output path, the log folder, --out of analyze, the cache folder', async () => {
    const victim = folder('victim');
    const nested = checkout({ dir: 'reports/out' });
    symlinkSync(victim, path.join(nested, 'reports'));
    const run = await childCli(['run', '--limit', '2'], nested);
    expect(run.code, run.stderr).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(`${path.join(nested, 'reports')} is a symbolic link`);

    const logs = checkout({ log: 'logs/samples.jsonl' });
    symlinkSync(victim, path.join(logs, 'logs'));
    expect((await childCli(['run', '--limit', '2'], logs)).code).toBe(ExitCode.badInput);

    const cache = checkout();
    symlinkSync(victim, path.join(cache, 'cache'));
    const cached = await childCli(['run', '--limit', '2', '--cache-dir', 'cache'], cache);
    expect(cached.code, cached.stderr).toBe(ExitCode.badInput);
    expect(cached.stderr).toContain(`${path.join(cache, 'cache')} is a symbolic link`);

    const analyse = checkout();
    writeFileSync(path.join(analyse, 'samples.jsonl'), '');
    symlinkSync(victim, path.join(analyse, 'report'));
    const analysed = await childCli(
      ['analyze', '--log', 'samples.jsonl', '--out', 'report'],
      analyse,
    );
    expect(analysed.code, analysed.stderr).toBe(ExitCode.badInput);
    expect(analysed.stderr).toContain('is a symbolic link');
    expect(readdirSync(victim)).toEqual([]);
  });

  it('a folder outside the working folder is taken as given, even through a link', async () => {
    const disk = folder('large-disk');
    const links = folder('links');
    symlinkSync(disk, path.join(links, 'out'));
    const dir = checkout();
    const run = await childCli(
      ['run', '--limit', '2', '--output-dir', path.join(links, 'out')],
      dir,
    );
    expect([ExitCode.pass, ExitCode.regression], run.stderr).toContain(run.code);
    expect(existsSync(path.join(disk, 'report.json'))).toBe(true);
  });
});

describe('the shared writer', () => {
  it('refuses a file whose folder is a link inside the working folder', () => {
    const victim = folder('victim');
    const dir = folder('checkout');
    symlinkSync(victim, path.join(dir, 'charts'));
    mkdirSync(path.join(dir, 'plain'));
    const home = process.cwd();
    process.chdir(dir);
    try {
      expect(() => writeFileAtomic('charts/a.svg', '<svg/>')).toThrow(InputError);
      expect(() => writeFileAtomic(path.join(dir, 'charts', 'deeper', 'b.svg'), 'x')).toThrow(
        'is a symbolic link',
      );
      writeFileAtomic('plain/c.svg', '<svg/>');
    } finally {
      process.chdir(home);
    }
    expect(readdirSync(victim)).toEqual([]);
    expect(existsSync(path.join(dir, 'plain', 'c.svg'))).toBe(true);
  });
});

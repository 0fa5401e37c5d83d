/**
 * The orchestration around the runner: shards merged by `analyze` give the report of a whole
 * run, and a cache folder spares a second runner every request it already made.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoadedConfig, loadConfig } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import { analyseLogs } from '../../src/job/analyse.js';
import { runJob } from '../../src/job/run.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
let simulator: RunningSimulator;
let root: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-job-'));
});
afterAll(async () => {
  await simulator.close();
});

function config(name: string): LoadedConfig {
  const dir = path.join(root, name);
  return loadConfig({
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      { path: ['provider', 'host'], value: simulator.url, source: 'test' },
      { path: ['checks'], value: ['churn', 'personas'], source: 'test' },
      { path: ['churn', 'samples'], value: 4, source: 'test' },
      { path: ['output', 'dir'], value: dir, source: 'test' },
    ],
  });
}

const generated = () => Object.values(simulator.stats().requests).reduce((a, b) => a + b, 0);

describe('shards', () => {
  it('two shards merged by analyze give the report of the whole run', async () => {
    const whole = await runJob({ loaded: config('whole'), progress: quiet });
    const first = await runJob({
      loaded: config('shard-1'),
      shard: { index: 1, count: 2 },
      progress: quiet,
    });
    const second = await runJob({
      loaded: config('shard-2'),
      shard: { index: 2, count: 2 },
      progress: quiet,
    });
    // The demo candidate regresses; a slice of the plan does not decide that: its run exits 0
    // (the slice was measured) and says which shard it was.
    expect(whole.exitCode).toBe(ExitCode.regression);
    expect([first.exitCode, second.exitCode]).toEqual([ExitCode.pass, ExitCode.pass]);
    expect([first.shard, second.shard, whole.shard]).toEqual(['1/2', '2/2', undefined]);
    // Each shard alone holds part of the plan.
    const calls = (o: typeof whole) => o.report.run.requests.reduce((a, r) => a + r.total, 0);
    expect(calls(first)).toBeGreaterThan(0);
    expect(calls(first)).toBeLessThan(calls(whole));
    expect(calls(first) + calls(second)).toBe(calls(whole));

    const merged = await analyseLogs({
      loaded: config('merged'),
      logs: [...first.files.logs, ...second.files.logs],
    });
    expect(merged.report.checks).toEqual(whole.report.checks);
    expect(merged.report.verdict).toEqual(whole.report.verdict);
    expect(merged.report.run.shards).toEqual(['1/2', '2/2']);
  });
});

describe('cache-dir', () => {
  it('a second runner with the cached log makes no request and reaches the same report', async () => {
    const cacheDir = path.join(root, 'cache');
    const fresh = await runJob({ loaded: config('cache-first'), cacheDir, progress: quiet });
    expect(existsSync(path.join(cacheDir, 'samples.jsonl'))).toBe(true);

    const before = generated();
    const again = await runJob({ loaded: config('cache-second'), cacheDir, progress: quiet });
    // Every unit is already in the log: no request, not even a warm-up, reaches the server.
    expect(generated() - before).toBe(0);
    expect(again.report.checks).toEqual(fresh.report.checks);
  });
});

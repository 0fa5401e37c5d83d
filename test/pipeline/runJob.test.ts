/**
 * The orchestration around the runner: shards merged by `analyze` give the report of a whole
 * run, and a cache folder spares a second runner every request it already made.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ConfigOverride } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { runJob } from '../../src/pipeline/run.js';
import type { JobOutcome } from '../../src/pipeline/types.js';
import { at, demoConfig, quiet, simulatedJob } from './simulatedJob.js';

const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-job-');

function config(name: string, extra: readonly ConfigOverride[] = []) {
  return demoConfig(job, name, [
    at(['churn', 'personas'], 'checks'),
    // Sizes are not what these tests look at: two answers per item and per probe (the
    // candidate still fails both checks), and a fifth of the demo's attribution null.
    at(2, 'churn', 'samples'),
    at(2, 'personas', 'samples'),
    at(200, 'personas', 'permutations'),
    ...extra,
  ]);
}

const generated = () => Object.values(job.simulator.stats().requests).reduce((a, b) => a + b, 0);

const CACHED = 'samples.jsonl';
let wholeRun: Promise<JobOutcome> | undefined;

/**
 * The whole plan, run once for the file with a cache folder: the shards are compared with its
 * report, and the cache tests start a second runner from a copy of the cache it left.
 */
function whole(): Promise<JobOutcome> {
  wholeRun ??= runJob({
    loaded: config('whole'),
    cacheDir: path.join(job.root, 'whole-cache'),
    progress: quiet,
  });
  return wholeRun;
}

/** A cache folder `name` holding what the whole run left in its own; returns the folder. */
async function cacheOfWholeRun(name: string): Promise<string> {
  await whole();
  const cacheDir = path.join(job.root, name);
  mkdirSync(cacheDir);
  copyFileSync(path.join(job.root, 'whole-cache', CACHED), path.join(cacheDir, CACHED));
  return cacheDir;
}

describe('shards', () => {
  it('two shards merged by analyze give the report of the whole run', async () => {
    const wholeOutcome = await whole();
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
    expect(wholeOutcome.exitCode).toBe(ExitCode.regression);
    expect([first.exitCode, second.exitCode]).toEqual([ExitCode.pass, ExitCode.pass]);
    expect([first.shard, second.shard, wholeOutcome.shard]).toEqual(['1/2', '2/2', undefined]);
    // Each shard alone holds part of the plan.
    const calls = (o: JobOutcome) => o.report.run.requests.reduce((a, r) => a + r.total, 0);
    expect(calls(first)).toBeGreaterThan(0);
    expect(calls(first)).toBeLessThan(calls(wholeOutcome));
    expect(calls(first) + calls(second)).toBe(calls(wholeOutcome));

    const merged = await analyseLogs({
      loaded: config('merged'),
      logs: [...first.files.logs, ...second.files.logs],
    });
    expect(merged.report.checks).toEqual(wholeOutcome.report.checks);
    expect(merged.report.verdict).toEqual(wholeOutcome.report.verdict);
    expect(merged.report.run.shards).toEqual(['1/2', '2/2']);
  });
});

describe('cache-dir', () => {
  it('a second runner with the cached log makes no request and reaches the same report', async () => {
    const fresh = await whole();
    expect(existsSync(path.join(job.root, 'whole-cache', CACHED))).toBe(true);
    const cacheDir = await cacheOfWholeRun('cache');

    const before = generated();
    const again = await runJob({ loaded: config('cache-second'), cacheDir, progress: quiet });
    // Every unit is already in the log: no request, not even a warm-up, reaches the server.
    expect(generated() - before).toBe(0);
    expect(again.report.checks).toEqual(fresh.report.checks);
  });
});

describe('cache-dir pruning', () => {
  const modelsIn = (file: string): Record<string, number> => {
    const counts: Record<string, number> = {};
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (line === '') continue;
      const record = JSON.parse(line) as { kind: string; model?: string };
      if (record.kind === 'run' || !record.model) continue;
      counts[record.model] = (counts[record.model] ?? 0) + 1;
    }
    return counts;
  };
  // The candidate of the first run becomes the only model of the second.
  const churnOnly = { path: ['checks'], value: ['churn'], source: 'test' };
  const candidateAlone = [
    churnOnly,
    { path: ['models', 'baseline'], value: 'demo-cand:1b', source: 'test' },
    { path: ['models', 'candidate'], value: undefined, source: 'test' },
  ];

  it("keeps only the current config's models, says how many records it dropped, and asks nothing again", async () => {
    const cacheDir = await cacheOfWholeRun('prune-cache');
    const cached = path.join(cacheDir, CACHED);
    const first = modelsIn(cached);
    expect(Object.keys(first).sort()).toEqual(['demo-base:1b', 'demo-cand:1b']);

    let said = '';
    const progress = {
      write: (text: string) => {
        said += text;
        return true;
      },
    };
    const before = generated();
    await runJob({
      loaded: config('prune-second', candidateAlone),
      cacheDir,
      progress: progress as unknown as NodeJS.WritableStream,
    });
    expect(generated() - before).toBe(0);
    expect(said).toContain(
      `dropped ${first['demo-base:1b']} records of models not in this config (demo-base:1b)`,
    );
    expect(modelsIn(cached)).toEqual({ 'demo-cand:1b': first['demo-cand:1b'] });
    expect(modelsIn(path.join(job.root, 'prune-second', 'samples.jsonl'))).toEqual({
      'demo-cand:1b': first['demo-cand:1b'],
    });
    expect(existsSync(`${cached}.pruning`)).toBe(false);
  });

  it('--keep-history keeps the records of models no longer in the config', async () => {
    const cacheDir = await cacheOfWholeRun('history-cache');
    const cached = path.join(cacheDir, CACHED);
    const first = modelsIn(cached);
    await runJob({
      loaded: config('history-second', candidateAlone),
      cacheDir,
      keepHistory: true,
      progress: quiet,
    });
    expect(modelsIn(cached)).toEqual(first);
  });
});

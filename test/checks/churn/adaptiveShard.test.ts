/**
 * churn.sampling: adaptive split over two runners: each slice holds whole items (every sample of
 * both models), decides its own stages, and the two logs merged give the report of one
 * unsharded run. 16 items of the simulator's set.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { SampledChurnSection } from '../../../src/checks/churn/section.js';
import { analyseLogs } from '../../../src/pipeline/analyse.js';
import { runJob } from '../../../src/pipeline/run.js';
import { readSampleLogs } from '../../../src/sampleLog/index.js';
import { at, demoConfig, quiet, simulatedJob } from '../../pipeline/simulatedJob.js';

const job = simulatedJob('fixtures/simulator/demo.yml', 'model-gate-adaptive-shard-');

function config(dir: string) {
  const items = path.join(job.root, 'items.yml');
  const all = parse(readFileSync('fixtures/items/general.yml', 'utf8')) as unknown[];
  writeFileSync(items, stringify(all.filter((_, i) => i % 2 === 0).slice(0, 16)));
  return demoConfig(job, dir, [
    at(['churn'], 'checks'),
    at(items, 'churn', 'items'),
    at('adaptive', 'churn', 'sampling'),
    at(3, 'churn', 'samplesFirst'),
    at(3, 'churn', 'samplesStep'),
    at(6, 'churn', 'samplesMax'),
  ]);
}

describe('adaptive sampling with --shard', () => {
  it('slices by item, each slice runs its own stages, and the merge equals the unsharded run', async () => {
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
    // Each item's records, both models, are in one slice's log only.
    const itemsOf = async (files: readonly string[]) => {
      const log = await readSampleLogs(files);
      return new Set(
        log.records.flatMap((r) => (r.kind === 'call' && r.check === 'churn' ? [r.item] : [])),
      );
    };
    const a = await itemsOf(first.files.logs);
    const b = await itemsOf(second.files.logs);
    expect(a.size + b.size).toBe(16);
    expect([...a].filter((item) => b.has(item))).toEqual([]);
    expect(Math.abs(a.size - b.size)).toBeLessThanOrEqual(1);
    // Some items went past the first stage: the slices grew their own plans.
    const section = whole.report.checks.churn as SampledChurnSection;
    const beyond = section.sampling?.stopped.filter((row) => row.samples > 3) ?? [];
    expect(beyond.reduce((sum, row) => sum + row.items, 0)).toBeGreaterThan(0);

    const merged = await analyseLogs({
      loaded: config('merged'),
      logs: [...first.files.logs, ...second.files.logs],
    });
    expect(merged.report.checks).toEqual(whole.report.checks);
    expect(merged.report.verdict).toEqual(whole.report.verdict);
    expect(merged.report.run.shards).toEqual(['1/2', '2/2']);
  }, 30_000);
});

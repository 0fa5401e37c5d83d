/**
 * churn.sampling: adaptive split over two runners: each slice holds whole items (every sample of
 * both models), decides its own stages, and the two logs merged give the report of one
 * unsharded run. 16 items of the simulator's set.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { parse, stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { SampledChurnSection } from '../../../src/checks/churn/section.js';
import { analyseLogs } from '../../../src/pipeline/analyse.js';
import { runJob } from '../../../src/pipeline/run.js';
import { readSampleLogs } from '../../../src/sampleLog/index.js';
import { at, demoConfig, simulatedJob } from '../../pipeline/simulatedJob.js';

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

/** The progress lines of a run, as done and total. */
function counted() {
  const lines: { done: number; total: number }[] = [];
  const stream = new Writable({
    write: (chunk, _encoding, done) => {
      for (const line of String(chunk).split('\n')) {
        const found = /^model-gate: (\d+)(?:\/| of up to )(\d+) calls/.exec(line);
        if (found) lines.push({ done: Number(found[1]), total: Number(found[2]) });
      }
      done();
    },
  });
  return { lines, stream };
}

describe('adaptive sampling with --shard', () => {
  it('slices by item, each slice runs its own stages, and the merge equals the unsharded run', async () => {
    const progress = [counted(), counted(), counted()];
    const whole = await runJob({ loaded: config('whole'), progress: progress[0]?.stream });
    const first = await runJob({
      loaded: config('shard-1'),
      shard: { index: 1, count: 2 },
      progress: progress[1]?.stream,
    });
    const second = await runJob({
      loaded: config('shard-2'),
      shard: { index: 2, count: 2 },
      progress: progress[2]?.stream,
    });
    // Each run counts against one total, fixed at its start: its items taken to samples-max
    // (6, and the greedy sample) for both models; a slice's total counts its own items only.
    const totals = progress.map(({ lines }) => {
      expect(new Set(lines.map((l) => l.total)).size).toBe(1);
      for (const { done, total } of lines) expect(done).toBeLessThanOrEqual(total);
      return lines[0]?.total ?? 0;
    });
    expect(totals[0]).toBe(16 * 2 * 7);
    expect((totals[1] ?? 0) + (totals[2] ?? 0)).toBe(totals[0]);
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

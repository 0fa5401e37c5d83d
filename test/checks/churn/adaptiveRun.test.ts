/**
 * churn.sampling: adaptive end to end against the simulator: a candidate that moves eight
 * known items (four down, four up) and leaves the others exactly as they were. The run must
 * find the eight, ask fewer requests than a fixed K at samples-max, and say so in the report
 * and the summary. A second run on the same log asks nothing; a fixed K = 20 log reused by
 * an adaptive run is read along the adaptive path only.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SampledChurnSection } from '../../../src/checks/churn/section.js';
import { loadConfig } from '../../../src/config/load.js';
import { runJob } from '../../../src/pipeline/run.js';
import { readSampleLogs } from '../../../src/sampleLog/index.js';
import { latentAccuracy, parseChurnParams } from '../../../src/simulator/behaviours/churn.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/server.js';

const ITEMS = 'fixtures/items/general.yml';
const base = parseChurnParams({ items: ITEMS, accuracy: 0.6, spread: 2.5, 'difficulty-seed': 3 });
const all = parse(readFileSync(ITEMS, 'utf8')) as { id: string; domain: string }[];
// A ±6 logit shift moves an item the baseline answers right 55–90% of the time down to
// almost never, one it answers right 15–45% of the time up to almost always: changes of 0.5+.
const between = (low: number, high: number) =>
  all.filter((item) => {
    const p = latentAccuracy(base, item);
    return p > low && p < high;
  });
const down = between(0.55, 0.9)
  .slice(0, 4)
  .map((item) => item.id);
const up = between(0.15, 0.45)
  .slice(0, 4)
  .map((item) => item.id);
const shifts = Object.fromEntries([...down.map((id) => [id, -6]), ...up.map((id) => [id, 6])]);

let sim: RunningSimulator;
let root: string;
beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-adaptive-'));
  const scenario = path.join(root, 'scenario.yml');
  const churn = `items: ${ITEMS}, accuracy: 0.6, spread: 2.5, difficulty-seed: 3`;
  writeFileSync(
    scenario,
    `seed: 11
models:
  - name: base:1b
    churn: { ${churn} }
  - name: cand:1b
    churn: { ${churn}, item-shifts: ${JSON.stringify(shifts)} }
`,
  );
  sim = await startSimulator({ port: 0, scenario });
});
afterAll(async () => {
  await sim.close();
});

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;

function config(dir: string, churn: Record<string, unknown>) {
  return loadConfig({
    checks: CHECKS,
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base:1b', source: 'test' },
      { path: ['models', 'candidate'], value: 'cand:1b', source: 'test' },
      { path: ['provider', 'host'], value: sim.url, source: 'test' },
      { path: ['checks'], value: ['churn'], source: 'test' },
      // The simulator's items: the multiple-choice set (the demo's adds open items).
      { path: ['churn', 'items'], value: path.resolve(ITEMS), source: 'test' },
      { path: ['output', 'dir'], value: path.join(root, dir), source: 'test' },
      // The Reliable Change Index is not what these tests look at (adaptive sampling does not
      // show it): the fewest reliability splits, where 1,000 of them, redrawn for each of the
      // null calibration's 200 replicates, were most of every analysis.
      { path: ['churn', 'splits'], value: 10, source: 'test' },
      ...Object.entries(churn).map(([key, value]) => ({
        path: ['churn', key],
        value,
        source: 'test',
      })),
    ],
  });
}

// The runner's mechanics are checked on one pinned design (not the defaults, which the bench
// chooses): stops at 5, 10 and 15 samples all occur with these 63 items.
const DESIGN = {
  sampling: 'adaptive',
  samplesFirst: 5,
  samplesStep: 5,
  samplesMax: 20,
  settledShare: 0.05,
  futilityP: 0.3,
  futilityFrom: 10,
  futilityTighten: 1,
};

const requestsMade = (): number =>
  Object.values(sim.stats().requests).reduce((sum, n) => sum + n, 0);

describe('adaptive sampling against the simulator', () => {
  it('finds the moved items with fewer requests than fixed K at samples-max, and says so', async () => {
    const before = requestsMade();
    const outcome = await runJob({
      loaded: config('adaptive', DESIGN),
      progress: quiet,
    });
    const section = outcome.report.checks.churn as SampledChurnSection;
    const rows = section.comparison?.items ?? [];
    const flagged = (cls: string) => rows.filter((r) => r.fisherBh === cls).map((r) => r.id);
    expect(flagged('deteriorated').sort()).toEqual([...down].sort());
    expect(flagged('improved').sort()).toEqual([...up].sort());

    const sampling = section.sampling;
    expect(sampling).toBeDefined();
    if (!sampling) return;
    // 63 items × 2 models × 20 samples at fixed K = 20.
    expect(sampling.requests.fixed).toBe(63 * 2 * 20);
    expect(sampling.requests.used).toBeLessThan(sampling.requests.fixed / 2);
    expect(sampling.requests.saved).toBe(sampling.requests.fixed - sampling.requests.used);
    // A moved item whose stage-wise p-value reaches 0.05 / 63 at a look is decided: it stops
    // there (flagged whatever the other items show) instead of running to samples-max.
    const early = [...down, ...up].filter((id) => (rows.find((r) => r.id === id)?.n[0] ?? 20) < 20);
    expect(sampling.decided?.pAtMost).toBeCloseTo(0.05 / 63, 12);
    const decided = sampling.stopped.reduce((sum, row) => sum + row.decided, 0);
    expect(early.length).toBeGreaterThanOrEqual(4);
    expect(decided).toBe(early.length);
    expect(sampling.stopped.reduce((sum, row) => sum + row.items, 0)).toBe(63);
    expect(sampling.stopped.every((row) => row.open === 0)).toBe(true);

    // The log holds the samples the report counts, and a few more: a stage the runner asked
    // before the items decided elsewhere raised the efficacy bound that, replayed, stops the
    // item a look sooner (counted in the log, left out of the tests). The server was asked
    // exactly the log's samples (+ one greedy sample per item and model, one warm-up per series).
    const log = await readSampleLogs(outcome.files.logs);
    const stochastic = log.records.filter(
      (r) => r.kind === 'call' && r.check === 'churn' && r.mode === 'stochastic',
    );
    expect(stochastic.length).toBeGreaterThanOrEqual(sampling.requests.used);
    expect(stochastic.length).toBeLessThanOrEqual(sampling.requests.used * 1.05);
    const series = outcome.report.run.operations?.series.length ?? 0;
    expect(requestsMade() - before).toBe(stochastic.length + 2 * 63 + series);

    const summary = readFileSync(outcome.files.summary, 'utf8');
    // One line: the design, the requests used and saved, and why items stopped.
    const total = (key: 'settled' | 'decided' | 'futility' | 'samplesMax') =>
      sampling.stopped.reduce((sum, row) => sum + row[key], 0);
    const line = summary.split('\n').find((l) => l.startsWith('**Sampling:**')) ?? '';
    expect(line).toContain('adaptive, 5 + 5 per item and model up to 20:');
    expect(line).toContain(
      `${sampling.requests.used.toLocaleString('en-US')} stochastic requests (both models) where a fixed K = 20 takes 2,520, ${sampling.requests.saved.toLocaleString('en-US')} saved`,
    );
    expect(line).toContain(
      `items stopped: ${total('settled')} settled, ${total('decided')} decided, ${total('futility')} futile, ${total('samplesMax')} at the maximum.`,
    );
    expect(summary).toContain('Items stopped, by samples per model:');
    // The Reliable Change Index assumes one K for every item: not shown with adaptive sampling.
    expect(summary).not.toContain('A: RCI');
    // The side-by-side methods are collapsed in the section and named in the summary.
    expect(summary).toContain('Both item methods side by side');
    // The smallest changes at samples-max are the rules table's; the K table is collapsed.
    expect(summary).toContain('Smallest change detected, and the K smaller ones would need');
    const domainRule = outcome.report.verdict.rules?.find(
      (r) => r.check === 'churn' && r.rule === 'domain-loss',
    );
    expect(domainRule?.detects).toContain('at K = 20 (samples-max; adaptive sampling)');
    expect(domainRule?.falseAlarmBasis).toContain('futility look');
    // The domain table counts items, not stages: an item is informative when its samples could
    // vary under the null (here, at least one of its stages is neither all right nor all wrong).
    const varies = (r: (typeof rows)[number]) =>
      r.x[0] + r.x[1] > 0 && r.x[0] + r.x[1] < r.n[0] + r.n[1];
    for (const domain of section.comparison?.domains ?? []) {
      if (domain.test === null) continue;
      const own = rows.filter((r) => r.domain === domain.domain);
      expect(domain.test.items).toBe(own.length);
      // Bounds: an item of one stage is informative exactly when its pooled counts vary; an item
      // of several stages only if they do.
      expect(domain.test.informative).toBeLessThanOrEqual(own.filter(varies).length);
      expect(domain.test.informative).toBeGreaterThanOrEqual(
        own.filter((r) => r.n[0] === 5 && varies(r)).length,
      );
    }

    // A rerun on the same log asks nothing and reaches the same report.
    const again = requestsMade();
    const rerun = await runJob({
      loaded: config('adaptive', DESIGN),
      progress: quiet,
    });
    expect(requestsMade()).toBe(again);
    expect(rerun.report.checks.churn).toEqual(outcome.report.checks.churn);
  }, 60_000);

  it('reuses a fixed K = 10 log: no request, and only the adaptive path enters the tests', async () => {
    const fixedRun = await runJob({ loaded: config('shared', { samples: 10 }), progress: quiet });
    expect((fixedRun.report.checks.churn as SampledChurnSection).sampling).toBeUndefined();
    const before = requestsMade();
    const adaptive = await runJob({
      loaded: config('shared', {
        sampling: 'adaptive',
        samplesFirst: 5,
        samplesStep: 5,
        samplesMax: 10,
      }),
      progress: quiet,
    });
    expect(requestsMade()).toBe(before);
    const section = adaptive.report.checks.churn as SampledChurnSection;
    const stoppedAt5 = section.sampling?.stopped.find((row) => row.samples === 5)?.items ?? 0;
    expect(stoppedAt5).toBeGreaterThan(20);
    // The log holds 10 samples of every item; items whose path stopped at 5 count 5.
    const counted = (section.comparison?.items ?? []).filter((r) => r.n[0] === 5 && r.n[1] === 5);
    expect(counted).toHaveLength(stoppedAt5);
    expect(section.sampling?.requests.used).toBe(63 * 2 * 10 - stoppedAt5 * 2 * 5);
  }, 60_000);
});

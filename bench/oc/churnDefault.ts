/**
 * Which churn sampling a user who sets nothing should get: fixed K = 10, fixed K = 20 and
 * adaptive sampling up to 20, on identical draws, through the real analysis and gate.
 *
 *   node --import tsx bench/oc/churnDefault.ts [--runs N --effect-runs N --open-runs N --seed S]
 *
 * Every run draws 23 samples per item and model from the known truth (bench/oc/churnTruth.ts,
 * the gate-validity generator: 5 domains × 60 items, baseline p from Beta(0.3, 0.3)); fixed
 * K = 10 reads the first 10 of them, fixed K = 20 the first 20, and the adaptive design the ones
 * its items' paths take (the analysis replays each path from the log, as after a real run: a
 * run that asked only those samples has the same report). Scenarios as in `npm run oc`:
 * identical models (the churn gate's false fails, and the whole gate's with the dragon and
 * personas checks' no-change runs of the same seeds), ±0.5 moves (item recall: moved items
 * flagged in the right direction; law named), law −30 (law named and the gate fails), and the
 * same with open items (bench/oc/churnOpenTruth.ts). Requests are the stochastic samples asked,
 * both models; the greedy sample (one per item and model) is the same in every design.
 */
import { churnCheck } from '../../src/checks/churn/index.js';
import type { SampledChurnSection } from '../../src/checks/churn/section.js';
import type { CheckContext, GateFinding } from '../../src/checks/types.js';
import { CHECKS, type BuiltInConfig } from '../../src/checks/builtIn.js';
import { configSchema } from '../../src/config/schema.js';
import type { ChurnItem } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';
import { createRng } from '../../src/stats/prng.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import {
  DEFAULT_GENERATOR,
  FIRST_ADAPTIVE_DEFAULT,
  type Generator,
  OPEN_GENERATOR,
  openItemsOf,
  type Scenario,
  scenarioTruth,
} from './churn.js';
import { drawRecords } from './churnTruth.js';
import { drawOpenRecords } from './churnOpenTruth.js';
import { operatingCharacteristics as dragon } from './dragon.js';
import { operatingCharacteristics as personas } from './personas.js';
import { foldRecords } from '../../src/checks/fold.js';

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) ? value : fallback;
}

interface Design {
  name: string;
  churn: Record<string, unknown>;
  /** Fixed K: the samples read of the 20 drawn. */
  fixed?: number;
}

const DESIGNS: Design[] = [
  { name: 'fixed K = 10', churn: { sampling: 'fixed', samples: 10 }, fixed: 10 },
  { name: 'fixed K = 20', churn: { sampling: 'fixed', samples: 20 }, fixed: 20 },
  // Nothing set but the mode: the schema's defaults, the design a user gets.
  {
    name: 'adaptive 4 + 4 up to 20 (the default)',
    churn: { sampling: 'adaptive', ...adaptiveOverrides() },
  },
  { name: 'adaptive 4 + 8 up to 20 (the previous default)', churn: FIRST_ADAPTIVE_DEFAULT },
];

/** `--adaptive '{"samplesFirst":4}'`: changes to the design up to 20. */
function adaptiveOverrides(): Record<string, unknown> {
  const index = process.argv.indexOf('--adaptive');
  return index === -1
    ? {}
    : (JSON.parse(process.argv[index + 1] ?? '{}') as Record<string, unknown>);
}

const MAX = 23;
const models = { baseline: 'base', candidate: 'cand' };

function contextOf(design: Design, g: Generator): CheckContext<BuiltInConfig> {
  const config = configSchema(CHECKS).parse({
    models,
    churn: { ...design.churn, greedy: g.greedy },
  });
  return { config, baseDir: '.', models };
}

interface Tally {
  runs: number;
  fails: number;
  moved: number;
  found: number;
  lawNamed: number;
  lawFailed: number;
  requests: number;
  failsByRun: boolean[];
}

const empty = (): Tally => ({
  runs: 0,
  fails: 0,
  moved: 0,
  found: 0,
  lawNamed: 0,
  lawFailed: 0,
  requests: 0,
  failsByRun: [],
});

const named = (f: readonly GateFinding[], domain: string) =>
  f.some(
    (x) =>
      x.rule === 'domain-loss' &&
      (x.severity === 'fail' || x.severity === 'warn') &&
      x.values?.domain === domain,
  );
const failed = (f: readonly GateFinding[]) => f.some((x) => x.severity === 'fail');

function simulate(
  g: Generator,
  scenario: Scenario,
  runs: number,
  seedOf: (run: number) => number,
): Map<string, Tally> {
  const tallies = new Map(DESIGNS.map((d) => [d.name, empty()]));
  const contexts = new Map(DESIGNS.map((d) => [d.name, contextOf(d, g)]));
  for (let r = 0; r < runs; r++) {
    const rng = createRng(seedOf(r));
    const truth = scenarioTruth(rng, g, scenario);
    let items: ChurnItem[] = truth.map((t) => t.item);
    let records: ChurnCallRecord[];
    if (g.open) {
      const open = openItemsOf(g);
      const openTruth = truth.map((t, i) => ({ ...t, item: open[i] as OpenItem }));
      records = drawOpenRecords(rng, openTruth, models, MAX, g.greedy, g.open.malformed);
      items = open;
    } else {
      records = drawRecords(rng, truth, models, MAX, g.greedy);
    }
    for (const design of DESIGNS) {
      const ctx = contexts.get(design.name) as CheckContext<BuiltInConfig>;
      const k = design.fixed;
      const log =
        k === undefined ? records : records.filter((x) => x.mode !== 'stochastic' || x.sample < k);
      const definitions = { items, file: 'truth', warnings: [] };
      const section = foldRecords(churnCheck.fold, log, definitions, ctx) as SampledChurnSection;
      const findings = churnCheck.gate(section, ctx);
      const tally = tallies.get(design.name) as Tally;
      tally.runs++;
      const fail = failed(findings);
      tally.failsByRun.push(fail);
      if (fail) tally.fails++;
      if (named(findings, 'law')) tally.lawNamed++;
      if (named(findings, 'law') && fail) tally.lawFailed++;
      tally.requests += section.sampling?.requests.used ?? 2 * items.length * (k ?? MAX);
      const rows = new Map((section.comparison?.items ?? []).map((row) => [row.id, row]));
      truth.forEach((t, i) => {
        if (t.candidate === t.baseline) return;
        tally.moved++;
        const id = (items[i] as ChurnItem).id;
        const cls = rows.get(id)?.fisherBh;
        const want = t.candidate > t.baseline ? 'improved' : 'deteriorated';
        if (cls === want) tally.found++;
      });
    }
  }
  return tallies;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const rate = (k: number, n: number) => {
  const { low, high } = wilsonInterval(k, n);
  return `${k}/${n} ${pct(k / n)} [${pct(low)}, ${pct(high)}]`;
};

const runs = option('runs', 200);
const effectRuns = option('effect-runs', Math.max(10, Math.round(runs / 4)));
const openRuns = option('open-runs', effectRuns);
const seed = option('seed', 1);
const seedOf = (code: number) => (run: number) => seed * 1_000_003 + 700_001 + code * 10_007 + run;
const started = performance.now();
const out = (line: string) => process.stdout.write(`${line}\n`);

// The other checks' no-change runs: the whole gate fails a run when any check fails it.
const others = [
  (await dragon({ runs, seed })).noChangeGateFails,
  (await personas({ runs, seed })).noChangeGateFails,
];
const reference = (t: Map<string, Tally>) => (t.get('fixed K = 10') as Tally).requests;

const none = simulate(DEFAULT_GENERATOR, 'no change', runs, seedOf(0));
out(`\nIdentical models, ${runs} runs × 300 items (choice items)`);
out(
  '| design | churn gate fails | whole gate fails (churn, dragon, personas) | requests / fixed K = 10 |',
);
out('|---|---|---|---|');
for (const [name, t] of none) {
  const whole = t.failsByRun.filter((f, i) => f || others.some((o) => o[i] === true)).length;
  out(
    `| ${name} | ${rate(t.fails, t.runs)} | ${rate(whole, t.runs)} | ${(t.requests / reference(none)).toFixed(3)} |`,
  );
}

const moved = simulate(DEFAULT_GENERATOR, '±0.5', effectRuns, seedOf(2));
out(`\n30 items moved ±0.5 (losses in law), ${effectRuns} runs`);
out(
  '| design | item recall (right direction) | recall / fixed K = 20 | law named | requests / fixed K = 10 |',
);
out('|---|---|---|---|---|');
const k20 = moved.get('fixed K = 20') as Tally;
for (const [name, t] of moved) {
  out(
    `| ${name} | ${rate(t.found, t.moved)} | ${(t.found / k20.found).toFixed(3)} | ${rate(t.lawNamed, t.runs)} | ${(t.requests / reference(moved)).toFixed(3)} |`,
  );
}

const law = simulate(DEFAULT_GENERATOR, 'law −30', effectRuns, seedOf(1));
out(`\nLaw −30 points, overall +1.5, ${effectRuns} runs`);
out('| design | law named and the gate fails | requests / fixed K = 10 |');
out('|---|---|---|');
for (const [name, t] of law) {
  out(`| ${name} | ${rate(t.lawFailed, t.runs)} | ${(t.requests / reference(law)).toFixed(3)} |`);
}

if (openRuns > 0) {
  for (const [scenario, code, what] of [
    ['no change', 10, 'churn gate fails'],
    ['±0.5', 12, 'item recall'],
    ['law −30', 11, 'law named and the gate fails'],
  ] as const) {
    const t = simulate(OPEN_GENERATOR, scenario, openRuns, seedOf(code));
    out(`\nOpen items, ${scenario}, ${openRuns} runs`);
    out(`| design | ${what} | requests / fixed K = 10 |`);
    out('|---|---|---|');
    for (const [name, x] of t) {
      const value =
        scenario === 'no change'
          ? rate(x.fails, x.runs)
          : scenario === '±0.5'
            ? rate(x.found, x.moved)
            : rate(x.lawFailed, x.runs);
      out(`| ${name} | ${value} | ${(x.requests / reference(t)).toFixed(3)} |`);
    }
  }
}
out(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);

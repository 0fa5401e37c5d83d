/**
 * What adaptive sampling costs on a pair where most items move a little, against what it keeps
 * on a U-shaped pair where a few move: the demo's churn pair drawn afresh many times, next to
 * the gate-validity generator's scenarios, every design reading the same draws.
 *
 * - "demo pair": the 63 multiple-choice items of the demo (law 15, four other domains of 12),
 *   baseline logit = logit(0.6) + z with z standard normal per item, the candidate +1.5 logits
 *   in four domains and −4 in law (fixtures/simulator/demo.yml), drawn afresh per replicate.
 *   Requests count the greedy sample of each item and model, as fixed K = 20's 2,646 do.
 * - "±0.5": 5 domains × 60 items, baseline p from Beta(0.3, 0.3), 30 items moved by ±0.5
 *   (bench/oc/churn.ts); "5 moved": the same with only the first 5 moved items kept moving;
 *   "law −30": law falls 30 points, the others rise.
 *
 * Items: the design's item test, Benjamini–Hochberg at 0.05 over every item; domains: the
 * stratified exact test, Holm at 0.05/6 (as bench/adaptive.ts). Recall is of moved items found
 * in the right direction, as a share of the shipped default's on the same draws.
 *
 *   npx tsx bench/adaptiveMoving.ts [replicates]      (or: npm run bench -- adaptiveMoving)
 */
import {
  type AdaptiveDesign,
  adaptiveItemPValue,
  adaptiveItemTest,
  designOf,
  replayItem,
  type StageCounts,
  stageStrata,
} from '../src/checks/churn/adaptive.js';
import { testDomains } from '../src/checks/churn/domainTest.js';
import { churnSettingsSchema } from '../src/checks/churn/settings.js';
import { benjaminiHochberg } from '../src/stats/benjaminiHochberg.js';
import { normalQuantile } from '../src/stats/normal.js';
import { createRng, type Rng } from '../src/stats/prng.js';
import type { Stratum } from '../src/stats/stratifiedExact.js';
import { DEFAULT_GENERATOR, type Scenario, scenarioTruth } from './oc/churn.js';

const ALPHA = 0.05;
const MAX_SAMPLES = 20;

interface Truth {
  domain: string;
  baseline: number;
  candidate: number;
}

interface Design {
  name: string;
  fixed?: number;
  /** The adaptive design for a plan of `items` items. */
  adaptive?: (items: number) => AdaptiveDesign;
}

const defaults = churnSettingsSchema.parse({ sampling: 'adaptive' });
const shipped = (items: number) => designOf(defaults, items);
const variant =
  (change: Partial<AdaptiveDesign>, decidedTimes = 1) =>
  (items: number): AdaptiveDesign => ({
    ...shipped(items),
    ...change,
    decided: { pAtMost: Math.min(ALPHA, (decidedTimes * ALPHA) / items) },
  });

const DESIGNS: Design[] = [
  { name: 'fixed K = 20', fixed: 20 },
  { name: 'the default (4 + 4 up to 20, futility 0.5 × 0.4 a look from 8)', adaptive: shipped },
  {
    name: 'futility bar × 0.25 a look',
    adaptive: variant({ futility: { fromSamples: 8, pAbove: 0.5, tighten: 0.25 } }),
  },
  {
    name: 'futility p > 0.4 from 8, × 0.4 a look',
    adaptive: variant({ futility: { fromSamples: 8, pAbove: 0.4, tighten: 0.4 } }),
  },
  {
    name: 'settled share 0.15',
    adaptive: variant({ settledShare: 0.15 }),
  },
  {
    name: '4 + 2 up to 20, futility 0.5 × 0.8 a look from 8',
    adaptive: variant({ stage: 2, futility: { fromSamples: 8, pAbove: 0.5, tighten: 0.8 } }),
  },
  { name: 'decided at 3 α / items', adaptive: variant({}, 3) },
  { name: 'decided at 10 α / items', adaptive: variant({}, 10) },
];

const logit = (p: number): number => Math.log(p / (1 - p));
const sigmoid = (x: number): number => 1 / (1 + Math.exp(-x));

/** The demo's churn pair (fixtures/simulator/demo.yml), its 63 choice items drawn afresh. */
function demoTruth(rng: Rng): Truth[] {
  const truth: Truth[] = [];
  const domains: [string, number, number][] = [
    ['law', 15, -4],
    ['physics', 12, 1.5],
    ['economics', 12, 1.5],
    ['geography', 12, 1.5],
    ['arithmetic', 12, 1.5],
  ];
  for (const [domain, items, shift] of domains) {
    for (let i = 0; i < items; i++) {
      const z = normalQuantile(Math.min(1 - 1e-12, Math.max(1e-12, rng.next())));
      const baseline = logit(0.6) + z;
      truth.push({ domain, baseline: sigmoid(baseline), candidate: sigmoid(baseline + shift) });
    }
  }
  return truth;
}

function generatorTruth(rng: Rng, scenario: Scenario, keepMoving = Infinity): Truth[] {
  let moving = 0;
  return scenarioTruth(rng, DEFAULT_GENERATOR, scenario).map((t) => {
    const moved = t.candidate !== t.baseline && moving++ < keepMoving;
    return {
      domain: t.item.domain,
      baseline: t.baseline,
      candidate: moved ? t.candidate : t.baseline,
    };
  });
}

interface Outcome {
  /** Requests of both models, the greedy sample of each item and model included. */
  requests: number;
  found: number;
  lawLoss: boolean;
}

function itemStages(
  draws: boolean[][],
  design: Design,
  items: number,
): {
  stages: StageCounts[];
  pValue: number;
} {
  const [baseline, candidate] = draws as [boolean[], boolean[]];
  if (design.fixed !== undefined) {
    const k = design.fixed;
    const count = (seq: boolean[]) => seq.slice(0, k).filter(Boolean).length;
    const stages = [
      {
        baselineCorrect: count(baseline),
        baselineSamples: k,
        candidateCorrect: count(candidate),
        candidateSamples: k,
      },
    ];
    return { stages, pValue: adaptiveItemPValue(stages) };
  }
  const adaptive = (design.adaptive as (n: number) => AdaptiveDesign)(items);
  const { stages } = replayItem((model, k) => (model === 0 ? baseline : candidate)[k], adaptive);
  return { stages, pValue: adaptiveItemTest(stages, adaptive).pValue };
}

function runDesign(truth: readonly Truth[], draws: boolean[][][], design: Design): Outcome {
  let requests = 2 * truth.length;
  const results = truth.map((_, i) => {
    const { stages, pValue } = itemStages(draws[i] as boolean[][], design, truth.length);
    let delta = 0;
    for (const s of stages) {
      requests += s.baselineSamples + s.candidateSamples;
      delta += s.candidateCorrect - s.baselineCorrect;
    }
    return { pValue, delta, strata: stageStrata(stages) };
  });
  const q = benjaminiHochberg(results.map((r) => r.pValue));
  let found = 0;
  const byDomain = new Map<string, Stratum[]>();
  truth.forEach((t, i) => {
    const r = results[i] as (typeof results)[number];
    const moved = Math.sign(t.candidate - t.baseline);
    if ((q[i] as number) <= ALPHA && moved !== 0 && Math.sign(r.delta) === moved) found++;
    byDomain.set(t.domain, [...(byDomain.get(t.domain) ?? []), ...r.strata]);
  });
  const rows = testDomains(
    [...byDomain].map(([domain, strata]) => ({ domain, strata })),
    ALPHA / 6,
  );
  return { requests, found, lawLoss: rows.some((r) => r.domain === 'law' && r.loss) };
}

interface Tally {
  ratios: number[];
  found: number;
  lawLoss: number;
}

/** Every design on the same draws of `replicates` truths; ratios of requests to fixed K = 20. */
function simulate(make: (rng: Rng) => Truth[], replicates: number, seed: number): Tally[] {
  const tallies = DESIGNS.map((): Tally => ({ ratios: [], found: 0, lawLoss: 0 }));
  for (let r = 0; r < replicates; r++) {
    const rng = createRng(seed + r);
    const truth = make(rng);
    const draws = truth.map((t) =>
      [t.baseline, t.candidate].map((p) =>
        Array.from({ length: MAX_SAMPLES }, () => rng.next() < p),
      ),
    );
    const outcomes = DESIGNS.map((design) => runDesign(truth, draws, design));
    const reference = (outcomes[0] as Outcome).requests;
    outcomes.forEach((o, d) => {
      const tally = tallies[d] as Tally;
      tally.ratios.push(o.requests / reference);
      tally.found += o.found;
      if (o.lawLoss) tally.lawLoss++;
    });
  }
  return tallies;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const quantile = (xs: readonly number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] as number;

const replicates = Number(process.argv[2] ?? 100);
const demo = simulate(demoTruth, replicates, 7000);
const spread = simulate((rng) => generatorTruth(rng, '±0.5'), replicates, 52000);
const few = simulate((rng) => generatorTruth(rng, '±0.5', 5), 2 * replicates, 91000);
const law = simulate((rng) => generatorTruth(rng, 'law −30'), Math.ceil(replicates / 2), 73000);
const share = (tallies: Tally[], d: number) =>
  ((tallies[d] as Tally).found / (tallies[1] as Tally).found).toFixed(3);
process.stdout.write(
  `demo pair: ${replicates} draws; ±0.5: ${replicates}; 5 moved: ${2 * replicates}; law −30: ${Math.ceil(replicates / 2)}\n` +
    '| design | demo pair: requests / fixed K = 20, greedy counted (mean) | 90th percentile | law named | ±0.5: recall / the default | 5 moved: recall / the default | ±0.5: requests / K = 20 | law −30 named |\n' +
    '|---|---|---|---|---|---|---|---|\n',
);
DESIGNS.forEach((design, d) => {
  const t = demo[d] as Tally;
  process.stdout.write(
    `| ${design.name} | ${mean(t.ratios).toFixed(3)} | ${quantile(t.ratios, 0.9).toFixed(3)} | ${t.lawLoss}/${replicates} | ${share(spread, d)} | ${share(few, d)} | ${mean((spread[d] as Tally).ratios).toFixed(3)} | ${(law[d] as Tally).lawLoss}/${Math.ceil(replicates / 2)} |\n`,
  );
});

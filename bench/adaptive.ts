/**
 * Adaptive against fixed sampling of churn items, from a known truth (the gate-validity
 * generator: 5 domains × 60 items, baseline p from Beta(0.3, 0.3)).
 *
 * Every item's samples are drawn once per replicate, as sample k would be with seed
 * base-seed + k, and every design reads a prefix of them: fixed K = 10, fixed K = 20 and the
 * adaptive designs see the same draws. Items are tested two-sided (Fisher for fixed K, the exact
 * conditional test across stages for adaptive), Benjamini–Hochberg at α = 0.05 over the 300
 * items; domains with the stratified exact test (one stratum per item, or per item and stage),
 * Holm at 0.05/6 as the gate does.
 *
 * Adaptive paths are replayed with the function the runner and the analysis use (replayItem).
 * The row "churn.sampling: adaptive (defaults)" is the shipped design, read from the config
 * schema's defaults.
 *
 *   npx tsx bench/adaptive.ts [replicates] [shipped|all] [seedA,seedB,seedC,seedD]
 *
 * `shipped`: only fixed K = 10, fixed K = 20 and the shipped design (a third of the time).
 * `up-to-20`: those three and the designs up to 20 samples with the efficacy stop from which
 * the default was chosen (docs/adaptive-sampling.md, "The default").
 * The seed bases of scenarios a, b and c default to 1,000, 2,000 and 3,000; the fresh
 * replicates of docs/adaptive-sampling.md use 61000,52000,73000,84000 (scenario d: 4,000 by default).
 */
import {
  type AdaptiveDesign,
  adaptiveItemPValue,
  adaptiveItemTest,
  type StageCounts,
  designOf,
  replayItem,
  stageStrata,
} from '../src/checks/churn/adaptive.js';
import { churnSettingsSchema } from '../src/checks/churn/settings.js';
import { testDomains } from '../src/checks/churn/domainTest.js';
import { benjaminiHochberg } from '../src/stats/benjaminiHochberg.js';
import { createRng } from '../src/stats/prng.js';
import type { Stratum } from '../src/stats/stratifiedExact.js';
import { wilsonInterval } from '../src/stats/wilson.js';
import { DEFAULT_GENERATOR, scenarioTruth } from './oc/churn.js';
import type { TruthItem } from './oc/churnTruth.js';

const ALPHA = 0.05;
const DOMAIN_LEVEL = 0.05 / 6;
const MAX_SAMPLES = 30;

type Scenario = Parameters<typeof scenarioTruth>[2];

interface Design {
  name: string;
  fixed?: number;
  adaptive?: AdaptiveDesign;
}

const SHIPPED: Design = {
  name: 'churn.sampling: adaptive (defaults)',
  adaptive: designOf(churnSettingsSchema.parse({ sampling: 'adaptive' }), 300),
};

const ALL_DESIGNS: Design[] = [
  { name: 'fixed K = 10', fixed: 10 },
  { name: 'fixed K = 20', fixed: 20 },
  SHIPPED,
  {
    name: 'adaptive 10 + 10, max 20, a = 0.1',
    adaptive: { firstStage: 10, stage: 10, samplesMax: 20, settledShare: 0.1 },
  },
  {
    name: 'adaptive 5 + 5, max 20, a = 0.1',
    adaptive: { firstStage: 5, stage: 5, samplesMax: 20, settledShare: 0.1 },
  },
  {
    name: 'adaptive 5 + 5, max 25, a = 0.05',
    adaptive: { firstStage: 5, stage: 5, samplesMax: 25, settledShare: 0.05 },
  },
  {
    name: 'adaptive 5 + 5, max 25, a = 0.05, futility p > 0.3 from 10',
    adaptive: {
      firstStage: 5,
      stage: 5,
      samplesMax: 25,
      settledShare: 0.05,
      futility: { fromSamples: 10, pAbove: 0.3 },
    },
  },
  {
    name: 'adaptive 5 + 5, max 30, a = 0.05, futility p > 0.3 from 10',
    adaptive: {
      firstStage: 5,
      stage: 5,
      samplesMax: 30,
      settledShare: 0.05,
      futility: { fromSamples: 10, pAbove: 0.3 },
    },
  },
  {
    name: 'adaptive 5 + 5, max 30, a = 0.05, futility p > 0.5 from 10',
    adaptive: {
      firstStage: 5,
      stage: 5,
      samplesMax: 30,
      settledShare: 0.05,
      futility: { fromSamples: 10, pAbove: 0.5 },
    },
  },
];

interface Outcome {
  /** Per item: −1 flagged as a loss, +1 as a gain, 0 not flagged. */
  flags: number[];
  lawLoss: boolean;
  anyDomain: boolean;
  requests: number;
}

interface ItemResult {
  pValue: number;
  /** Observed change in accuracy over every stage. */
  delta: number;
  domainStrata: Stratum[];
}

function analyse(truth: readonly TruthItem[], results: ItemResult[]): Omit<Outcome, 'requests'> {
  const q = benjaminiHochberg(results.map((r) => r.pValue));
  const flags = results.map((r, i) => ((q[i] as number) > ALPHA ? 0 : Math.sign(r.delta)));
  const byDomain = new Map<string, Stratum[]>();
  truth.forEach((t, i) => {
    const list = byDomain.get(t.item.domain) ?? [];
    list.push(...(results[i] as ItemResult).domainStrata);
    byDomain.set(t.item.domain, list);
  });
  const rows = testDomains(
    [...byDomain].map(([domain, strata]) => ({ domain, strata })),
    DOMAIN_LEVEL,
  );
  return {
    flags,
    lawLoss: rows.some((r) => r.domain === 'law' && r.loss),
    anyDomain: rows.some((r) => r.loss || r.gain),
  };
}

function runDesign(truth: readonly TruthItem[], draws: boolean[][][], design: Design): Outcome {
  let requests = 0;
  const results = truth.map((_, i): ItemResult => {
    const [baseline, candidate] = draws[i] as [boolean[], boolean[]];
    const count = (seq: boolean[], from: number, n: number) =>
      seq.slice(from, from + n).filter(Boolean).length;
    let stages: StageCounts[];
    if (design.fixed !== undefined) {
      const k = design.fixed;
      stages = [
        {
          baselineCorrect: count(baseline, 0, k),
          baselineSamples: k,
          candidateCorrect: count(candidate, 0, k),
          candidateSamples: k,
        },
      ];
    } else {
      stages = replayItem(
        (model, k) => (model === 0 ? baseline : candidate)[k],
        design.adaptive as AdaptiveDesign,
      ).stages;
    }
    let x1 = 0;
    let x2 = 0;
    let n = 0;
    for (const s of stages) {
      requests += s.baselineSamples + s.candidateSamples;
      x1 += s.baselineCorrect;
      x2 += s.candidateCorrect;
      n += s.baselineSamples;
    }
    const delta = (x2 - x1) / n;
    if (design.fixed !== undefined) {
      return { pValue: adaptiveItemPValue(stages), delta, domainStrata: stageStrata(stages) };
    }
    const test = adaptiveItemTest(stages, design.adaptive as AdaptiveDesign);
    return { pValue: test.pValue, delta, domainStrata: test.domainStrata };
  });
  return { ...analyse(truth, results), requests };
}

interface Tally {
  runs: number;
  falseFlags: number;
  runsWithFalseFlag: number;
  falseDiscoveryProportion: number;
  moved: number;
  found: number;
  lawLoss: number;
  anyDomain: number;
  requests: number;
}

const empty = (): Tally => ({
  runs: 0,
  falseFlags: 0,
  runsWithFalseFlag: 0,
  falseDiscoveryProportion: 0,
  moved: 0,
  found: 0,
  lawLoss: 0,
  anyDomain: 0,
  requests: 0,
});

function simulate(scenario: Scenario, replicates: number, seedBase: number): Map<string, Tally> {
  const tallies = new Map(DESIGNS.map((d) => [d.name, empty()]));
  for (let r = 0; r < replicates; r++) {
    const rng = createRng(seedBase + r);
    const truth = scenarioTruth(rng, DEFAULT_GENERATOR, scenario);
    const draws = truth.map((t) =>
      [t.baseline, t.candidate].map((p) =>
        Array.from({ length: MAX_SAMPLES }, () => rng.next() < p),
      ),
    );
    for (const design of DESIGNS) {
      const outcome = runDesign(truth, draws, design);
      const tally = tallies.get(design.name) as Tally;
      tally.runs++;
      tally.requests += outcome.requests;
      let falseFlags = 0;
      let flagged = 0;
      truth.forEach((t, i) => {
        const flag = outcome.flags[i] as number;
        const moved = t.candidate !== t.baseline;
        if (moved) tally.moved++;
        if (flag === 0) return;
        flagged++;
        if (moved && flag === Math.sign(t.candidate - t.baseline)) tally.found++;
        else falseFlags++;
      });
      tally.falseFlags += falseFlags;
      if (falseFlags > 0) tally.runsWithFalseFlag++;
      tally.falseDiscoveryProportion += flagged === 0 ? 0 : falseFlags / flagged;
      if (outcome.lawLoss) tally.lawLoss++;
      if (outcome.anyDomain) tally.anyDomain++;
    }
  }
  return tallies;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const withInterval = (k: number, n: number) => {
  const { low, high } = wilsonInterval(k, n);
  return `${k}/${n} ${pct(k / n)} [${pct(low)}, ${pct(high)}]`;
};

/** Designs up to 20 samples, each stopping decided items at 0.05 / 300 (the default's choice). */
function upTo20(): Design[] {
  const designs: Design[] = [];
  for (const [first, step] of [
    [3, 5],
    [4, 4],
    [4, 8],
    [6, 7],
    [5, 15],
  ] as const) {
    for (const settled of [0.1, 0.05]) {
      for (const [p, from, tighten] of [
        [0.05, 12, 1],
        [0.2, 10, 1],
        [0.5, 8, 0.4],
        [1, 0, 1],
      ] as const) {
        designs.push({
          name: `adaptive ${first} + ${step} up to 20, a = ${settled}, ${p < 1 ? `futility p > ${p} from ${from}${tighten < 1 ? ` (× ${tighten} a look)` : ''}` : 'no futility'}, decided`,
          adaptive: {
            firstStage: first,
            stage: step,
            samplesMax: 20,
            settledShare: settled,
            ...(p < 1 ? { futility: { fromSamples: from, pAbove: p, tighten } } : {}),
            decided: { pAtMost: ALPHA / 300 },
          },
        });
      }
    }
  }
  return designs;
}

const replicates = Number(process.argv[2] ?? 48);
const DESIGNS =
  process.argv[3] === 'shipped'
    ? ALL_DESIGNS.slice(0, 3)
    : process.argv[3] === 'up-to-20'
      ? [...ALL_DESIGNS.slice(0, 3), ...upTo20()]
      : ALL_DESIGNS;
const [seedA, seedB, seedC, seedD] = (process.argv[4] ?? '1000,2000,3000,4000')
  .split(',')
  .map(Number) as [number, number, number, number | undefined];
const started = performance.now();
const reference = (tallies: Map<string, Tally>) => (tallies.get('fixed K = 20') as Tally).requests;

const nullTallies = simulate('no change', replicates, seedA);
process.stdout.write(
  `\n(a) identical models, ${replicates} replicates × 300 items\n` +
    '| design | items falsely flagged (total) | runs with a false flag (= FDR) | runs with a domain named | requests / fixed K = 20 |\n' +
    '|---|---|---|---|---|\n',
);
for (const [name, t] of nullTallies) {
  process.stdout.write(
    `| ${name} | ${t.falseFlags} | ${withInterval(t.runsWithFalseFlag, t.runs)} | ${withInterval(t.anyDomain, t.runs)} | ${pct(t.requests / reference(nullTallies))} |\n`,
  );
}

const movedTallies = simulate('±0.5', replicates, seedB);
process.stdout.write(
  `\n(b) 30 items moved ±0.5, ${replicates} replicates\n` +
    '| design | recall (moved items found, right direction) | mean false discovery proportion | law named a loss | requests / fixed K = 20 |\n' +
    '|---|---|---|---|---|\n',
);
for (const [name, t] of movedTallies) {
  process.stdout.write(
    `| ${name} | ${withInterval(t.found, t.moved)} | ${pct(t.falseDiscoveryProportion / t.runs)} | ${withInterval(t.lawLoss, t.runs)} | ${pct(t.requests / reference(movedTallies))} |\n`,
  );
}

const lawTallies = simulate('law −30', replicates, seedC);
process.stdout.write(
  `\n(c) law falls 30 points (others rise, overall +1.5), ${replicates} replicates\n` +
    '| design | law named a loss | requests / fixed K = 20 |\n|---|---|---|\n',
);
for (const [name, t] of lawTallies) {
  process.stdout.write(
    `| ${name} | ${withInterval(t.lawLoss, t.runs)} | ${pct(t.requests / reference(lawTallies))} |\n`,
  );
}
const noNetTallies = simulate('law ±0.5 no net', replicates, seedD ?? 4_000);
process.stdout.write(
  `\n(d) law: 10 items gain 0.5 and 10 lose 0.5, no net change, ${replicates} replicates\n` +
    '| design | recall (moved items found, right direction) | law named a loss (no net loss: should stay rare) | requests / fixed K = 20 |\n|---|---|---|---|\n',
);
for (const [name, t] of noNetTallies) {
  process.stdout.write(
    `| ${name} | ${withInterval(t.found, t.moved)} | ${withInterval(t.lawLoss, t.runs)} | ${pct(t.requests / reference(noNetTallies))} |\n`,
  );
}
process.stdout.write(`\n${((performance.now() - started) / 1000).toFixed(1)} s\n`);

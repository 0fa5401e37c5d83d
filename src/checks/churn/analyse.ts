/**
 * Records → churn section. Pure: the sample log, the items and the settings decide the
 * result; the random parts (random splits when K > 12, the null calibration, a domain
 * bootstrap) use fixed seeds, so `model-gate analyze` reproduces the report from the log.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import { percentileBootstrap } from '../../stats/bootstrap.js';
import { createFisherCache } from '../../stats/fisher.js';
import { mcnemarTest } from '../../stats/mcnemar.js';
import { createRng } from '../../stats/prng.js';
import { median } from '../../stats/quantile.js';
import { halfSplits, splitHalfReliability } from '../../stats/splitHalf.js';
import { tInterval } from '../../stats/studentT.js';
import { wilsonInterval } from '../../stats/wilson.js';
import type { ChurnItem } from './items.js';
import {
  countsOf,
  Exclusion,
  type MethodsOutcome,
  RCI_CONSERVATIVE,
  RCI_CRITICAL,
  runMethods,
} from './methods.js';
import { BAND_EDGES, bandOf, type MethodNull, nullCalibration } from './nullCalibration.js';
import { PROMPT_VERSION } from './prompt.js';
import type {
  BandRow,
  ChurnComparison,
  CountShare,
  DomainRow,
  ExclusionReason,
  FlagSet,
  GreedySection,
  GreedyVsStochastic,
  ItemClass,
  ItemRow,
  MethodSection,
  ModelSummary,
  SampledChurnSection,
} from './section.js';
import type { ChurnSettings } from './settings.js';
import { type ModelTally, tallyRecords } from './tally.js';
import { churnBudget } from './budget.js';
import {
  type AdaptivePaths,
  adaptivePaths,
  domainStrata,
  keepPathSamples,
  stagedItems,
} from './adaptiveAnalysis.js';
import {
  type DomainCounts,
  type DomainTestRow,
  DETECTION_POWER,
  detectableItemChange,
  samplesForDomainLoss,
  samplesForItemChange,
  testDomains,
  testOverall,
} from './domainTest.js';
import type { Stratum } from '../../stats/stratifiedExact.js';
import { normalQuantile } from '../../stats/normal.js';

/** Seeds of the analysis' random parts, fixed so a log always gives the same report. */
export const SPLIT_SEED = 42;
export const NULL_SEED = 43;
export const DOMAIN_BOOTSTRAP_SEED = 44;
const DOMAIN_BOOTSTRAP_REPLICATES = 2000;

export interface ChurnAnalysisInput {
  records: readonly SampleRecord[];
  items: readonly ChurnItem[];
  settings: ChurnSettings;
  baseline: string;
  candidate: string | null;
  /** Loader warnings carried into the section. */
  warnings?: readonly string[];
  /** The check's share of the false-alarm budget (default: 0.05 split between three checks). */
  falseAlarmShare?: number;
}

/** The default share: false-alarm-rate 0.05 over the three checks. */
export const DEFAULT_CHECK_SHARE = 0.05 / 3;

const finite = (v: number): number | null => (Number.isFinite(v) ? v : null);
const ratio = (a: number, b: number): number | null => (b === 0 ? null : a / b);

export function countShare(count: number, base: number): CountShare {
  const ci = wilsonInterval(count, base);
  return {
    count,
    share: ratio(count, base),
    low: base === 0 ? null : ci.low,
    high: base === 0 ? null : ci.high,
  };
}

export function flagSet(improved: number, deteriorated: number, base: number): FlagSet {
  return {
    base,
    improved: countShare(improved, base),
    deteriorated: countShare(deteriorated, base),
    unchanged: countShare(base - improved - deteriorated, base),
  };
}

function modelSummary(tally: ModelTally, reliability: number): ModelSummary {
  const { x, n } = countsOf(tally.masks);
  const p: number[] = [];
  for (let i = 0; i < x.length; i++)
    if ((n[i] as number) > 0) p.push((x[i] as number) / (n[i] as number));
  const accuracy = tInterval(p);
  const greedy = tally.greedy.filter((g): g is boolean => g !== null);
  const { requests } = tally;
  return {
    model: tally.model,
    itemsAnswered: p.length,
    accuracy: {
      mean: finite(accuracy.mean),
      low: finite(accuracy.low),
      high: finite(accuracy.high),
    },
    reliability: finite(reliability),
    greedyAccuracy: greedy.length === 0 ? null : greedy.filter(Boolean).length / greedy.length,
    requests: { ...requests },
    invalidShare: ratio(requests.invalid, requests.total),
    timeoutShare: ratio(requests.timeout, requests.total),
  };
}

function classOf(flag: number, excluded: boolean): ItemClass {
  if (excluded) return 'excluded';
  return flag > 0 ? 'improved' : flag < 0 ? 'deteriorated' : 'unchanged';
}

const EXCLUSION_NAMES: Record<number, ExclusionReason | null> = {
  [Exclusion.none]: null,
  [Exclusion.lowValid]: 'low-valid',
  [Exclusion.floor]: 'floor',
  [Exclusion.ceiling]: 'ceiling',
};

function methodSection(
  classes: Int8Array,
  outcome: MethodsOutcome,
  deltas: Float64Array,
  expected: MethodNull,
): Omit<MethodSection, 'method'> {
  let improved = 0;
  let deteriorated = 0;
  let positive = 0;
  const changedDeltas: number[] = [];
  for (let i = 0; i < classes.length; i++) {
    const flag = classes[i] as number;
    const delta = deltas[i] as number;
    if (outcome.exclusion[i] === Exclusion.none && delta > 0) positive++;
    if (flag === 0) continue;
    if (flag > 0) improved++;
    else deteriorated++;
    changedDeltas.push(Math.abs(delta));
  }
  return {
    improved,
    deteriorated,
    all: flagSet(improved, deteriorated, classes.length),
    analysable: flagSet(improved, deteriorated, outcome.analysable),
    churnRate: ratio(improved + deteriorated, classes.length),
    net: improved - deteriorated,
    medianAbsDelta: changedDeltas.length === 0 ? null : median(changedDeltas),
    breadthRatio: ratio(improved, positive),
    expected: {
      improved: expected.improved,
      deteriorated: expected.deteriorated,
      flagged: expected.flagged,
      falseFlagRate: expected.falseFlagRate,
    },
  };
}

export function analyseChurn(input: ChurnAnalysisInput): SampledChurnSection {
  const { settings, items } = input;
  // Adaptive sampling: up to samples-max per item, each item's path replayed from the log.
  const samples = settings.sampling === 'adaptive' ? settings.samplesMax : settings.samples;
  const warnings = [...(input.warnings ?? [])];
  const tally = tallyRecords(input.records, items, samples, input.baseline, input.candidate);
  const adaptive = adaptiveTally(input, tally);
  if (tally.unknownItemRecords > 0) {
    warnings.push(
      `${tally.unknownItemRecords} records name items that are not in the item file (ignored)`,
    );
  }
  if (tally.exactRecords > 0) {
    warnings.push(
      `${tally.exactRecords} records of the logprobs estimator are in the log; with churn.estimator: sampled they are left aside`,
    );
  }
  if (tally.beyondSamples > 0) {
    warnings.push(
      `${tally.beyondSamples} records have a sample index at or beyond K = ${samples} (ignored)`,
    );
  }
  for (const model of [tally.baseline, tally.candidate]) {
    if (model && model.promptHashes.size > items.length) {
      warnings.push(
        `${model.model}: samples were asked with more than one prompt version (resumed across a prompt change?)`,
      );
    }
  }
  const { splits, exhaustive } = halfSplits(samples, settings.splits, createRng(SPLIT_SEED));
  const base: Omit<SampledChurnSection, 'baseline' | 'candidate' | 'comparison' | 'itemCounts'> = {
    check: 'churn',
    estimator: 'sampled',
    promptVersion: PROMPT_VERSION,
    method: settings.method,
    alpha: settings.alpha,
    samples,
    temperature: settings.temperature,
    ...(adaptive ? { sampling: adaptive.summary } : {}),
    warnings,
  };

  if (tally.candidate === null) {
    const reliability = splitHalfReliability(tally.baseline.masks, splits).reliability;
    return {
      ...base,
      itemCounts: { total: items.length, analysable: 0, lowValid: 0, floor: 0, ceiling: 0 },
      baseline: modelSummary(tally.baseline, reliability),
      candidate: null,
      comparison: null,
    };
  }

  const budget = churnBudget(input.falseAlarmShare ?? DEFAULT_CHECK_SHARE);
  const fisher = createFisherCache();
  const staged = adaptive ? stagedItems(adaptive) : undefined;
  const { masks } = tally.baseline;
  const outcome = runMethods(masks, tally.candidate.masks, splits, settings.alpha, fisher, staged);
  const calibration = nullCalibration(
    outcome,
    tally.baseline.masks,
    tally.candidate.masks,
    splits,
    settings.alpha,
    fisher,
    settings.nullReplicates,
    NULL_SEED,
    budget.maxDeteriorated,
    staged,
  );
  const { x1, n1, x2, n2 } = outcome.counts;
  const p1 = new Float64Array(items.length);
  const p2 = new Float64Array(items.length);
  const deltas = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) {
    p1[i] = (n1[i] as number) > 0 ? (x1[i] as number) / (n1[i] as number) : Number.NaN;
    p2[i] = (n2[i] as number) > 0 ? (x2[i] as number) / (n2[i] as number) : Number.NaN;
    deltas[i] = (p2[i] as number) - (p1[i] as number);
  }

  const counts = {
    total: items.length,
    analysable: outcome.analysable,
    lowValid: 0,
    floor: 0,
    ceiling: 0,
  };
  for (const code of outcome.exclusion) {
    if (code === Exclusion.lowValid) counts.lowValid++;
    else if (code === Exclusion.floor) counts.floor++;
    else if (code === Exclusion.ceiling) counts.ceiling++;
  }

  const paired: number[] = [];
  const pairedDomains: string[] = [];
  deltas.forEach((d, i) => {
    if (Number.isFinite(d)) {
      paired.push(d);
      pairedDomains.push((items[i] as ChurnItem).domain);
    }
  });
  const delta = aggregateDelta(paired, pairedDomains, settings.deltaInterval);

  const fisherBh = {
    method: 'fisher-bh' as const,
    alpha: settings.alpha,
    ...methodSection(outcome.exactClass, outcome, deltas, calibration.exact),
    rawP: {
      improved: outcome.rawClass.filter((f) => f > 0).length,
      deteriorated: outcome.rawClass.filter((f) => f < 0).length,
    },
  };
  const minDetectableDelta = finite(RCI_CRITICAL * outcome.sDiff);
  const rci = {
    method: 'rci' as const,
    ...methodSection(outcome.rciClass, outcome, deltas, calibration.rci),
    reliability: {
      baseline: finite(outcome.reliability[0]),
      candidate: finite(outcome.reliability[1]),
    },
    splits: { count: splits.length, exhaustive },
    sd: { baseline: finite(outcome.sd[0]), candidate: finite(outcome.sd[1]) },
    sem: { baseline: finite(outcome.sem[0]), candidate: finite(outcome.sem[1]) },
    sDiff: finite(outcome.sDiff),
    minDetectableDelta,
    // The tiny slack keeps 0.4·10 = 4.000000000000001 from rounding up to 5 samples.
    minDetectableSamples:
      minDetectableDelta === null ? null : Math.ceil(minDetectableDelta * samples - 1e-9),
    conservative: {
      critical: RCI_CONSERVATIVE,
      improved: outcome.rciConservativeClass.filter((f) => f > 0).length,
      deteriorated: outcome.rciConservativeClass.filter((f) => f < 0).length,
    },
  };
  const gateClasses = settings.method === 'fisher-bh' ? outcome.exactClass : outcome.rciClass;
  const strataOf = adaptive
    ? (i: number) => domainStrata(adaptive, i, masks, (tally.candidate as ModelTally).masks)
    : undefined;
  const tests = domainTests(
    items,
    outcome,
    settings.gate.minDomainItems,
    budget.domainLoss,
    strataOf,
  );
  const domains = domainTable(items, p1, p2, deltas, gateClasses, tests.overall.direction, (d) => {
    const test = tests.byDomain.get(d) ?? null;
    return { test, loss: test?.loss ?? false, gain: test?.gain ?? false };
  });
  const comparison: ChurnComparison = {
    delta,
    greedy: greedySection(tally.baseline.greedy, tally.candidate.greedy),
    fisherBh,
    rci,
    domains,
    reversals: domains.filter((d) => d.reversal).map((d) => d.domain),
    domainTest: {
      level: budget.domainLoss,
      minItems: settings.gate.minDomainItems,
      overall: tests.overall,
    },
    detection: detection(tests, outcome, samples, settings.alpha),
    bands: bandTable(outcome, p1, calibration.exact.bands, calibration.rci.bands),
    greedyVsStochastic: greedyVsStochastic(
      outcome,
      gateClasses,
      tally.baseline.greedy,
      tally.candidate.greedy,
    ),
    null: { replicates: calibration.replicates, seed: calibration.seed },
    items: items.map((item, i): ItemRow => {
      const excluded = outcome.exclusion[i] !== Exclusion.none;
      return {
        id: item.id,
        domain: item.domain,
        x: [x1[i] as number, x2[i] as number],
        n: [n1[i] as number, n2[i] as number],
        p: [finite(p1[i] as number), finite(p2[i] as number)],
        delta: finite(deltas[i] as number),
        excluded: EXCLUSION_NAMES[outcome.exclusion[i] as number] ?? null,
        fisherP: finite(outcome.fisherP[i] as number),
        q: finite(outcome.q[i] as number),
        rci: finite(outcome.rci[i] as number),
        fisherBh: classOf(outcome.exactClass[i] as number, excluded),
        rciClass: classOf(outcome.rciClass[i] as number, excluded),
        greedy: [
          tally.baseline.greedy[i] ?? null,
          (tally.candidate as ModelTally).greedy[i] ?? null,
        ],
      };
    }),
  };
  return {
    ...base,
    itemCounts: counts,
    baseline: modelSummary(tally.baseline, outcome.reliability[0]),
    candidate: modelSummary(tally.candidate, outcome.reliability[1]),
    comparison,
  };
}

/**
 * Adaptive sampling: each item's path replayed from the log, and every sample beyond it (a
 * fixed run's, reused) cleared from the masks. Null at a fixed K.
 */
function adaptiveTally(
  input: ChurnAnalysisInput,
  tally: ReturnType<typeof tallyRecords>,
): AdaptivePaths | null {
  const { settings, items } = input;
  if (settings.sampling !== 'adaptive') return null;
  const adaptive = adaptivePaths(input.records, items, settings, input.baseline, input.candidate);
  keepPathSamples(tally.baseline.masks, adaptive.planned);
  if (tally.candidate) keepPathSamples(tally.candidate.masks, adaptive.planned);
  return adaptive;
}

export function aggregateDelta(
  paired: number[],
  domains: string[],
  interval: 'items' | 'domains',
): ChurnComparison['delta'] {
  const t = tInterval(paired);
  if (interval === 'items') {
    return {
      mean: finite(t.mean),
      low: finite(t.low),
      high: finite(t.high),
      n: paired.length,
      interval,
    };
  }
  // Items of one domain may move together; resampling whole domains keeps that dependence.
  const groups = new Map<string, number[]>();
  paired.forEach((d, i) => {
    const key = domains[i] as string;
    const group = groups.get(key) ?? [];
    group.push(d);
    groups.set(key, group);
  });
  const units = [...groups.values()];
  const meanOf = (resample: readonly number[][]): number => {
    let sum = 0;
    let count = 0;
    for (const group of resample) {
      for (const v of group) sum += v;
      count += group.length;
    }
    return count === 0 ? Number.NaN : sum / count;
  };
  const boot = percentileBootstrap(units, meanOf, {
    rng: createRng(DOMAIN_BOOTSTRAP_SEED),
    replicates: DOMAIN_BOOTSTRAP_REPLICATES,
  });
  return {
    mean: finite(t.mean),
    low: units.length < 2 ? null : finite(boot.low),
    high: units.length < 2 ? null : finite(boot.high),
    n: paired.length,
    interval,
  };
}

interface DomainTests {
  byDomain: Map<string, DomainTestRow>;
  overall: ReturnType<typeof testOverall>;
  /** Mean shrunk per-sample variance p̃(1 − p̃) over the tested items. */
  variance: number;
  analysable: number;
  /** The domain rule's level split over the tested domains (Bonferroni, Holm's first step). */
  levelPerDomain: number;
}

/**
 * Every item with enough valid samples from both models enters its domain's test: one stratum
 * per item, or with adaptive sampling the strata `strataOf` gives (one per stage).
 */
function domainTests(
  items: readonly ChurnItem[],
  outcome: MethodsOutcome,
  minItems: number,
  level: number,
  strataOf?: (item: number) => Stratum[],
): DomainTests {
  const { x1, n1, x2, n2 } = outcome.counts;
  const byDomain = new Map<string, DomainCounts>();
  const all: Stratum[] = [];
  let variance = 0;
  items.forEach((item, i) => {
    if (outcome.exclusion[i] === Exclusion.lowValid) return;
    const stratum = {
      x1: x1[i] as number,
      n1: n1[i] as number,
      x2: x2[i] as number,
      n2: n2[i] as number,
    };
    const p = (stratum.x1 + stratum.x2 + 1) / (stratum.n1 + stratum.n2 + 2);
    variance += p * (1 - p);
    const strata = strataOf ? strataOf(i) : [stratum];
    all.push(...strata);
    const counts = byDomain.get(item.domain) ?? { domain: item.domain, strata: [], items: [] };
    counts.strata.push(...strata);
    counts.items?.push(stratum);
    byDomain.set(item.domain, counts);
  });
  const tested = [...byDomain.values()].filter((d) => (d.items ?? d.strata).length >= minItems);
  const rows = testDomains(tested, level);
  return {
    byDomain: new Map(rows.map((row) => [row.domain, row])),
    overall: testOverall(all),
    variance: all.length === 0 ? 0.25 : variance / all.length,
    analysable: outcome.analysable,
    levelPerDomain: level / Math.max(1, tested.length),
  };
}

const ITEM_EFFECTS = [0.3, 0.5, 0.7];
const DOMAIN_EFFECTS = [0.05, 0.1, 0.2];

/**
 * The smallest changes each rule sees with 80% power at this K, and the K a smaller one needs.
 * Fisher + BH on one changed item is taken at the Bonferroni level α/m (BH's threshold for a
 * single discovery); domains at the domain rule's level split over the tested domains.
 */
function detection(
  tests: DomainTests,
  outcome: MethodsOutcome,
  samples: number,
  alpha: number,
): ChurnComparison['detection'] {
  const itemLevel = alpha / Math.max(1, tests.analysable);
  const rows = [...tests.byDomain.values()];
  const smallest = rows.reduce<DomainTestRow | null>(
    (min, row) => (min === null || row.items < min.items ? row : min),
    null,
  );
  const level = rows.length === 0 ? null : tests.levelPerDomain;
  const rciDelta = (normalQuantile(0.975) + normalQuantile(DETECTION_POWER)) * outcome.sDiff;
  return {
    power: DETECTION_POWER,
    itemFisherBh: finite(Math.min(1, detectableItemChange(samples, itemLevel))),
    itemRci: finite(rciDelta),
    domain: smallest?.detectable ?? null,
    domainItems: smallest?.items ?? null,
    samplesFor: [
      ...ITEM_EFFECTS.map((effect) => ({
        kind: 'item' as const,
        effect,
        samples: samplesForItemChange(effect, itemLevel),
      })),
      ...(smallest === null || level === null
        ? []
        : DOMAIN_EFFECTS.map((effect) => ({
            kind: 'domain' as const,
            effect,
            samples: samplesForDomainLoss(effect, smallest.items, tests.variance, level),
          }))),
    ],
  };
}

export function meanOfFinite(values: number[]): number | null {
  const kept = values.filter(Number.isFinite);
  return kept.length === 0 ? null : kept.reduce((a, b) => a + b, 0) / kept.length;
}

/** What a domain's rule concluded: its test (sampled estimator) and whether it lost or gained. */
export interface DomainJudgement {
  test: DomainTestRow | null;
  loss: boolean;
  gain: boolean;
}

/**
 * One row per domain: accuracies, the items each method flagged, and the domain rule's
 * conclusion. A loss is a reversal only when the overall change is significantly up (a gain
 * only when it is significantly down): the sign of an overall Δ whose interval holds 0 says
 * nothing about direction.
 */
export function domainTable(
  items: readonly ChurnItem[],
  p1: Float64Array,
  p2: Float64Array,
  deltas: Float64Array,
  classes: Int8Array,
  overall: 'up' | 'down' | null,
  judge: (domain: string, indices: readonly number[]) => DomainJudgement,
): DomainRow[] {
  const byDomain = new Map<string, number[]>();
  items.forEach((item, i) => {
    const list = byDomain.get(item.domain) ?? [];
    list.push(i);
    byDomain.set(item.domain, list);
  });
  return [...byDomain.entries()]
    .map(([domain, indices]): DomainRow => {
      const improved = indices.filter((i) => (classes[i] as number) > 0).length;
      const deteriorated = indices.filter((i) => (classes[i] as number) < 0).length;
      const { test, loss, gain } = judge(domain, indices);
      return {
        domain,
        items: indices.length,
        baselineAccuracy: meanOfFinite(indices.map((i) => p1[i] as number)),
        candidateAccuracy: meanOfFinite(indices.map((i) => p2[i] as number)),
        delta: meanOfFinite(indices.map((i) => deltas[i] as number)),
        improved,
        deteriorated,
        net: improved - deteriorated,
        loss,
        gain,
        reversal: (loss && overall === 'up') || (gain && overall === 'down'),
        test,
      };
    })
    .sort(
      (a, b) =>
        (a.delta ?? 0) - (b.delta ?? 0) || a.net - b.net || a.domain.localeCompare(b.domain),
    );
}

function bandTable(
  outcome: MethodsOutcome,
  p1: Float64Array,
  exactExpected: MethodNull['bands'],
  rciExpected: MethodNull['bands'],
): BandRow[] {
  const rows: BandRow[] = [];
  for (let b = 0; b < BAND_EDGES.length - 1; b++) {
    const exactBand = exactExpected[b] ?? { improved: 0, deteriorated: 0 };
    const rciBand = rciExpected[b] ?? { improved: 0, deteriorated: 0 };
    rows.push({
      low: BAND_EDGES[b] as number,
      high: BAND_EDGES[b + 1] as number,
      items: 0,
      fisherBh: {
        improved: 0,
        deteriorated: 0,
        expectedImproved: exactBand.improved,
        expectedDeteriorated: exactBand.deteriorated,
      },
      rci: {
        improved: 0,
        deteriorated: 0,
        expectedImproved: rciBand.improved,
        expectedDeteriorated: rciBand.deteriorated,
      },
    });
  }
  for (let i = 0; i < p1.length; i++) {
    if (outcome.exclusion[i] !== Exclusion.none) continue;
    const row = rows[bandOf(p1[i] as number)] as BandRow;
    row.items++;
    const exactFlag = outcome.exactClass[i] as number;
    const rciFlag = outcome.rciClass[i] as number;
    if (exactFlag > 0) row.fisherBh.improved++;
    if (exactFlag < 0) row.fisherBh.deteriorated++;
    if (rciFlag > 0) row.rci.improved++;
    if (rciFlag < 0) row.rci.deteriorated++;
  }
  return rows;
}

function greedySection(
  baseline: (boolean | null)[],
  candidate: (boolean | null)[],
): GreedySection | null {
  let items = 0;
  let right1 = 0;
  let right2 = 0;
  let worse = 0;
  let better = 0;
  baseline.forEach((g1, i) => {
    const g2 = candidate[i];
    if (g1 === null || g2 === null || g2 === undefined) return;
    items++;
    if (g1) right1++;
    if (g2) right2++;
    if (g1 && !g2) worse++;
    if (!g1 && g2) better++;
  });
  if (items === 0) return null;
  const test = mcnemarTest(worse, better);
  return {
    items,
    baselineAccuracy: right1 / items,
    candidateAccuracy: right2 / items,
    delta: (right2 - right1) / items,
    worse,
    better,
    midP: test.midP,
    exactP: test.exactP,
  };
}

function greedyVsStochastic(
  outcome: MethodsOutcome,
  classes: Int8Array,
  baseline: (boolean | null)[],
  candidate: (boolean | null)[],
): GreedyVsStochastic | null {
  let changed = 0;
  let missed = 0;
  let unchanged = 0;
  let flipped = 0;
  for (let i = 0; i < classes.length; i++) {
    const g1 = baseline[i];
    const g2 = candidate[i];
    if (outcome.exclusion[i] !== Exclusion.none || g1 === null || g2 === null) continue;
    if (g1 === undefined || g2 === undefined) continue;
    const greedyMove = Number(g2) - Number(g1);
    const flag = classes[i] as number;
    if (flag !== 0) {
      changed++;
      if (greedyMove !== flag) missed++;
    } else {
      unchanged++;
      if (greedyMove !== 0) flipped++;
    }
  }
  if (changed + unchanged === 0) return null;
  return {
    changed,
    missed,
    missedShare: ratio(missed, changed),
    unchanged,
    flipped,
    flippedShare: ratio(flipped, unchanged),
  };
}

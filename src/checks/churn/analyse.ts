/**
 * Records → churn section, sampled estimator. Pure: the sample log, the items and the settings
 * decide the result; the random parts (random splits when K > 12, the null calibration, a
 * domain bootstrap) use fixed seeds, so `model-gate analyze` reproduces the report from the log.
 */
import { createFisherCache } from '../../stats/fisher.js';
import { createRng } from '../../stats/prng.js';
import { halfSplits, splitHalfReliability } from '../../stats/splitHalf.js';
import {
  accuracyAndRequests,
  aggregateDelta,
  type ChurnAnalysisInput,
  DEFAULT_CHECK_SHARE,
  domainTable,
  finite,
  otherEstimatorWarning,
  pairedDeltas,
  summariseFlags,
  unknownItemsWarning,
} from './analyseShared.js';
import {
  type AdaptivePaths,
  adaptivePaths,
  domainStrata,
  keepPathSamples,
  stagedItems,
} from './adaptiveAnalysis.js';
import { churnBudget } from './rules.js';
import { MAX_ITEMS_WITH_EXAMPLES, openItemFields, openItemsSummary } from './openEvidence.js';
import { gradeOpenAnswers, type OpenAnswerCounts, openGradingWarnings } from './openGrading.js';
import type { ChurnItem } from './items.js';
import {
  countsOf,
  Exclusion,
  type MethodsOutcome,
  RCI_CONSERVATIVE,
  RCI_CRITICAL,
  runMethods,
} from './methods.js';
import { type MethodNull, type NullCalibration, nullCalibration } from './nullCalibration.js';
import { PROMPT_VERSION } from './prompt.js';
import {
  bandTable,
  detection,
  domainTests,
  greedySection,
  greedyVsStochastic,
} from './sampledTables.js';
import type {
  ChurnComparison,
  ExclusionReason,
  ItemClass,
  ItemRow,
  MethodSection,
  ModelSummary,
  SampledChurnSection,
} from './section.js';
import { fixedSamples, samplingOf } from './settings.js';
import { type ChurnTally, type ModelTally, tallyRecords } from './tally.js';

/** Seeds of the analysis' random parts, fixed so a log always gives the same report. */
export const SPLIT_SEED = 42;
export const NULL_SEED = 43;

function modelSummary(tally: ModelTally, reliability: number): ModelSummary {
  const { x, n } = countsOf(tally.masks);
  const p = [...itemAccuracies(x, n)].filter(Number.isFinite);
  const greedy = tally.greedy.filter((g): g is boolean => g !== null);
  const { accuracy, ...requests } = accuracyAndRequests(p, tally.requests);
  return {
    model: tally.model,
    itemsAnswered: p.length,
    accuracy,
    reliability: finite(reliability),
    greedyAccuracy: greedy.length === 0 ? null : greedy.filter(Boolean).length / greedy.length,
    ...requests,
  };
}

/** Names of the exclusion codes (methods.ts), null for an analysable item. */
const EXCLUSION_NAMES = [
  null,
  'low-valid',
  'floor',
  'ceiling',
] as const satisfies readonly (ExclusionReason | null)[];

function classOf(flag: number, excluded: boolean): ItemClass {
  if (excluded) return 'excluded';
  return flag > 0 ? 'improved' : flag < 0 ? 'deteriorated' : 'unchanged';
}

function methodSection(
  classes: Int8Array,
  outcome: MethodsOutcome,
  deltas: Float64Array,
  expected: MethodNull,
): Omit<MethodSection, 'method'> {
  const { counted, ...flags } = summariseFlags(
    classes,
    deltas,
    (i) => outcome.exclusion[i] === Exclusion.none,
  );
  const { improved, deteriorated, flagged, falseFlagRate } = expected;
  return {
    ...flags,
    analysable: counted,
    expected: { improved, deteriorated, flagged, falseFlagRate },
  };
}

function tallyWarnings(tally: ChurnTally, items: readonly ChurnItem[], samples: number): string[] {
  const warnings: string[] = [];
  if (tally.unknownItemRecords > 0) warnings.push(unknownItemsWarning(tally.unknownItemRecords));
  if (tally.logprobsRecords > 0)
    warnings.push(otherEstimatorWarning(tally.logprobsRecords, 'sampled'));
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
  return warnings;
}

/** Samples per item and model: K, or samples-max with adaptive sampling. */
export function sampledK(settings: ChurnAnalysisInput['settings']): number {
  return samplingOf(settings) === 'adaptive' ? settings.samplesMax : fixedSamples(settings);
}

export function analyseChurn(input: ChurnAnalysisInput): SampledChurnSection {
  const { items } = input;
  // Adaptive sampling: up to samples-max per item, each item's path replayed from the log.
  const samples = sampledK(input.settings);
  // Open answers graded by today's graders; adaptive paths keep the grades the run acted on.
  const graded = gradeOpenAnswers(input.records, items);
  const tally = tallyRecords(graded.records, items, samples, input.baseline, input.candidate);
  return analyseTally(input, tally, graded.counts, adaptiveTally(input, tally));
}

/** The section of a tally (the records' part of the analysis done): statistics and tables. */
export function analyseTally(
  input: Omit<ChurnAnalysisInput, 'records'>,
  tally: ChurnTally,
  gradingCounts: OpenAnswerCounts,
  adaptive: AdaptivePaths | null,
): SampledChurnSection {
  const { settings, items } = input;
  const samples = sampledK(settings);
  const warnings = [
    ...(input.warnings ?? []),
    ...tallyWarnings(tally, items, samples),
    ...openGradingWarnings(gradingCounts),
  ];
  const openItems = openItemsSummary(items, gradingCounts, tally.baseline, tally.candidate);
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
    ...(openItems ? { openItems } : {}),
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
  const candidate = tally.candidate;
  const fisher = createFisherCache();
  const staged = adaptive ? stagedItems(adaptive) : undefined;
  const { masks } = tally.baseline;
  const outcome = runMethods(masks, candidate.masks, splits, settings.alpha, fisher, staged);
  const calibration = nullCalibration(
    outcome,
    tally.baseline.masks,
    candidate.masks,
    splits,
    settings.alpha,
    fisher,
    settings.nullReplicates,
    NULL_SEED,
    churnBudget(input.falseAlarmShare ?? DEFAULT_CHECK_SHARE).maxDeteriorated,
    staged,
  );
  return {
    ...base,
    itemCounts: exclusionCounts(items.length, outcome),
    baseline: modelSummary(tally.baseline, outcome.reliability[0]),
    candidate: modelSummary(candidate, outcome.reliability[1]),
    comparison: compareSampled(
      input,
      { splits, exhaustive, samples },
      tally,
      candidate,
      outcome,
      calibration,
      adaptive,
    ),
  };
}

/**
 * Adaptive sampling: each item's path replayed from the log, and every sample beyond it (a
 * fixed run's, reused) cleared from the masks. Null at a fixed K.
 */
function adaptiveTally(input: ChurnAnalysisInput, tally: ChurnTally): AdaptivePaths | null {
  const { settings, items } = input;
  if (samplingOf(settings) !== 'adaptive') return null;
  const adaptive = adaptivePaths(input.records, items, settings, input.baseline, input.candidate);
  keepPathSamples(tally.baseline.masks, adaptive.planned);
  if (tally.candidate) keepPathSamples(tally.candidate.masks, adaptive.planned);
  return adaptive;
}

function exclusionCounts(
  total: number,
  outcome: MethodsOutcome,
): SampledChurnSection['itemCounts'] {
  const counts = { total, analysable: outcome.analysable, lowValid: 0, floor: 0, ceiling: 0 };
  const keys = [null, 'lowValid', 'floor', 'ceiling'] as const;
  for (const code of outcome.exclusion) {
    const key = keys[code];
    if (key) counts[key]++;
  }
  return counts;
}

/** Accuracy per item, NaN where the model has no valid sample. */
function itemAccuracies(x: Int32Array, n: Int32Array): Float64Array {
  const p = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    p[i] = (n[i] as number) > 0 ? (x[i] as number) / (n[i] as number) : Number.NaN;
  }
  return p;
}

function compareSampled(
  input: Omit<ChurnAnalysisInput, 'records'>,
  /** The split-half design, and the samples per item (samples-max when adaptive). */
  halves: { splits: readonly Uint32Array[]; exhaustive: boolean; samples: number },
  tally: ChurnTally,
  candidate: ModelTally,
  outcome: MethodsOutcome,
  calibration: NullCalibration,
  adaptive: AdaptivePaths | null,
): ChurnComparison {
  const { settings, items } = input;
  const { x1, n1, x2, n2 } = outcome.counts;
  const p1 = itemAccuracies(x1, n1);
  const p2 = itemAccuracies(x2, n2);
  const { deltas, paired, pairedDomains } = pairedDeltas(items, p1, p2);
  const budget = churnBudget(input.falseAlarmShare ?? DEFAULT_CHECK_SHARE);
  const gateClasses = settings.method === 'fisher-bh' ? outcome.fisherBhClass : outcome.rciClass;
  const strataOf = adaptive
    ? (i: number) => domainStrata(adaptive, i, tally.baseline.masks, candidate.masks)
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
  return {
    delta: aggregateDelta(paired, pairedDomains, settings.deltaInterval),
    greedy: greedySection(tally.baseline.greedy, candidate.greedy),
    fisherBh: fisherBhSection(outcome, deltas, calibration, settings.alpha),
    rci: rciSection(outcome, deltas, calibration, halves, halves.samples),
    domains,
    reversals: domains.filter((d) => d.reversal).map((d) => d.domain),
    domainTest: {
      level: budget.domainLoss,
      minItems: settings.gate.minDomainItems,
      overall: tests.overall,
    },
    detection: detection(tests, outcome, halves.samples, settings.alpha),
    bands: bandTable(outcome, p1, calibration.fisherBh.bands, calibration.rci.bands),
    greedyVsStochastic: greedyVsStochastic(
      outcome,
      gateClasses,
      tally.baseline.greedy,
      candidate.greedy,
    ),
    null: { replicates: calibration.replicates, seed: calibration.seed },
    items: itemRows(items, outcome, { p1, p2, deltas }, [tally.baseline, candidate]),
  };
}

function fisherBhSection(
  outcome: MethodsOutcome,
  deltas: Float64Array,
  calibration: NullCalibration,
  alpha: number,
): ChurnComparison['fisherBh'] {
  return {
    method: 'fisher-bh' as const,
    alpha,
    ...methodSection(outcome.fisherBhClass, outcome, deltas, calibration.fisherBh),
    rawP: {
      improved: outcome.rawClass.filter((f) => f > 0).length,
      deteriorated: outcome.rawClass.filter((f) => f < 0).length,
    },
  };
}

function rciSection(
  outcome: MethodsOutcome,
  deltas: Float64Array,
  calibration: NullCalibration,
  halves: { splits: readonly Uint32Array[]; exhaustive: boolean },
  samples: number,
): ChurnComparison['rci'] {
  const minDetectableDelta = finite(RCI_CRITICAL * outcome.sDiff);
  return {
    method: 'rci' as const,
    ...methodSection(outcome.rciClass, outcome, deltas, calibration.rci),
    reliability: {
      baseline: finite(outcome.reliability[0]),
      candidate: finite(outcome.reliability[1]),
    },
    splits: { count: halves.splits.length, exhaustive: halves.exhaustive },
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
}

function itemRows(
  items: readonly ChurnItem[],
  outcome: MethodsOutcome,
  accuracies: { p1: Float64Array; p2: Float64Array; deltas: Float64Array },
  [baseline, candidate]: [ModelTally, ModelTally],
): ItemRow[] {
  const { x1, n1, x2, n2 } = outcome.counts;
  const { p1, p2, deltas } = accuracies;
  const examples = { left: MAX_ITEMS_WITH_EXAMPLES };
  return items.map((item, i): ItemRow => {
    const excluded = outcome.exclusion[i] !== Exclusion.none;
    const flagged = outcome.fisherBhClass[i] !== 0 || outcome.rciClass[i] !== 0;
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
      fisherBh: classOf(outcome.fisherBhClass[i] as number, excluded),
      rciClass: classOf(outcome.rciClass[i] as number, excluded),
      greedy: [baseline.greedy[i] ?? null, candidate.greedy[i] ?? null],
      ...openItemFields(item, i, [baseline, candidate], flagged && !excluded, examples),
    };
  });
}

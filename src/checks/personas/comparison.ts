/**
 * Baseline vs candidate on the same catalogue: accuracy, recognition per assistant and the
 * pairs that merge or separate, each change tested (see tests.ts). Changing the model under
 * unchanged prompts moves these; the point is to see it before the migration.
 */
import type {
  PairChange,
  PersonasAssistant,
  PersonasComparison,
  PersonasLevels,
  PersonasModelResult,
  RecognitionChange,
} from './section.js';
import { shrunkOneSidedP } from '../../stats/dispersion.js';
import { type ProbeCounts, probeCounts } from './probeCounts.js';
import type { SwapTestResult } from './swapTest.js';
import {
  largerShareP,
  pairMerged,
  pairSeparated,
  probeDispersion,
  recognitionDropped,
  testedPairs,
} from './tests.js';

/**
 * `swap`: the permutation test on both models' answers; null when the baseline comes from a
 * previous report, and the counts of each model's confusion matrix are tested with
 * Bonferroni instead.
 */
export function compareModels(
  assistants: readonly PersonasAssistant[],
  baseline: PersonasModelResult,
  candidate: PersonasModelResult,
  levels: PersonasLevels,
  swap: SwapTestResult | null,
): PersonasComparison {
  const mergedBefore = new Set(
    baseline.confusedPairs.filter((p) => p.merged && !p.control).map(pairKey),
  );
  const mergedAfter = new Set(
    candidate.confusedPairs.filter((p) => p.merged && !p.control).map(pairKey),
  );
  const delta =
    baseline.accuracy !== null && candidate.accuracy !== null
      ? candidate.accuracy - baseline.accuracy
      : null;
  const compared: Compared = { assistants, baseline, candidate, levels };
  const recognition = swap ? recognitionFromSwaps(compared, swap) : recognitionBonferroni(compared);
  const pairs = swap ? pairsFromSwaps(swap, levels) : pairsBonferroni(compared);
  return {
    baseline: baseline.model,
    candidate: candidate.model,
    accuracy: { baseline: baseline.accuracy, candidate: candidate.accuracy, delta },
    levels,
    test: swap
      ? { method: 'swap-permutation', swaps: swap.swaps, pairedCells: swap.pairedCells }
      : { method: 'fisher-bonferroni', swaps: 0, pairedCells: 0 },
    recognition,
    pairs,
    newlyMerged: pairs.filter((p) => p.merged),
    newlySeparated: baseline.confusedPairs.filter(
      (p) => mergedBefore.has(pairKey(p)) && !mergedAfter.has(pairKey(p)),
    ),
    controlChanges: candidate.controls.flatMap((after) => {
      const before = baseline.controls.find((c) => c.control === after.control);
      if (!before || before.verdict === after.verdict) return [];
      return [
        {
          control: after.control,
          twin: after.twin,
          kind: after.kind,
          baseline: before.verdict,
          candidate: after.verdict,
        },
      ];
    }),
  };
}

/** What both tests of a comparison read: the catalogue, both models' results, the levels. */
interface Compared {
  assistants: readonly PersonasAssistant[];
  baseline: PersonasModelResult;
  candidate: PersonasModelResult;
  levels: PersonasLevels;
}

type RecognitionCounts = RecognitionChange['baselineCounts'];

/** What a test says of one assistant: both sides' counts, its p-values and its own fields. */
interface RecognitionTest {
  baselineCounts: RecognitionCounts;
  candidateCounts: RecognitionCounts;
  p: number | null;
  adjusted: number | null;
  fields: Pick<RecognitionChange, 'separated' | 'dispersion'>;
}

type Recognised = PersonasModelResult['recognition'][number] | undefined;

/** Every assistant's change, its counts and p-values from the test at hand. */
function recognitionChanges(
  { assistants, baseline, candidate, levels }: Compared,
  test: (assistant: PersonasAssistant, before: Recognised, after: Recognised) => RecognitionTest,
): RecognitionChange[] {
  return assistants.map((assistant) => {
    const before = baseline.recognition.find((r) => r.assistant === assistant.name);
    const after = candidate.recognition.find((r) => r.assistant === assistant.name);
    const { baselineCounts, candidateCounts, p, adjusted, fields } = test(assistant, before, after);
    return {
      assistant: assistant.name,
      baseline: before?.share ?? null,
      candidate: after?.share ?? null,
      baselineGated: shareOf(baselineCounts),
      candidateGated: shareOf(candidateCounts),
      baselineCounts,
      candidateCounts,
      p,
      adjusted,
      ...fields,
      dropped: recognitionDropped(hits(baselineCounts), hits(candidateCounts), adjusted, levels),
      control: assistant.control !== null,
    };
  });
}

function recognitionFromSwaps(compared: Compared, swap: SwapTestResult): RecognitionChange[] {
  return recognitionChanges(compared, (assistant, before, after) => {
    const test = swap.recognition.find((r) => r.assistant === assistant.name);
    if (!test) {
      const none = { p: null, adjusted: null, fields: {} };
      return { baselineCounts: countsOf(before), candidateCounts: countsOf(after), ...none };
    }
    return {
      baselineCounts: { recognised: test.baseline.hits, answers: test.baseline.answers },
      candidateCounts: { recognised: test.candidate.hits, answers: test.candidate.answers },
      p: test.p,
      adjusted: test.adjusted,
      fields: { separated: test.separated, dispersion: test.dispersion },
    };
  });
}

function recognitionBonferroni(compared: Compared): RecognitionChange[] {
  const { assistants, baseline, levels } = compared;
  const separation = baselineSeparation(assistants, baseline);
  const probes = bothProbeCounts(compared);
  return recognitionChanges(compared, (assistant, before, after) => {
    const baselineCounts = countsOf(before);
    const candidateCounts = countsOf(after);
    const control = assistant.control !== null;
    const separated = separation.assistant(assistant.name);
    const dispersion = probes
      ? probeDispersion(
          probes.baseline.recognised(assistant.name),
          probes.candidate.recognised(assistant.name),
        )
      : 1;
    const p = control
      ? null
      : shrunkOneSidedP(largerShareP(hits(baselineCounts), hits(candidateCounts)), dispersion);
    // Bonferroni over every assistant, tested or not: the count is fixed before the data.
    const adjusted = p === null || !separated ? null : Math.min(1, p * levels.recognitionTests);
    const fields = control ? {} : { separated, ...(probes ? { dispersion } : {}) };
    return { baselineCounts, candidateCounts, p, adjusted, fields };
  });
}

/**
 * Which pairs the baseline told apart (pairSeparated on its own confusion matrix), and which
 * assistants it told apart from every other tested one: the separations the rules guard.
 */
function baselineSeparation(
  assistants: readonly PersonasAssistant[],
  baseline: PersonasModelResult,
): { pair(a: string, b: string): boolean; assistant(name: string): boolean } {
  const index = new Map(assistants.map((a, i) => [a.name, i]));
  const own = (name: string) => countsOf(baseline.recognition.find((r) => r.assistant === name));
  const separated = new Map<string, boolean>();
  for (const [a, b] of testedPairs(assistants)) {
    const i = index.get(a.name) ?? 0;
    const j = index.get(b.name) ?? 0;
    const crossings = (baseline.confusion[i]?.[j] ?? 0) + (baseline.confusion[j]?.[i] ?? 0);
    separated.set(
      pairKey({ a: a.name, b: b.name }),
      pairSeparated(crossings, own(a.name).recognised, own(b.name).recognised),
    );
  }
  return {
    pair: (a, b) => separated.get(pairKey({ a, b })) ?? false,
    assistant: (name) =>
      testedPairs(assistants).every(
        ([a, b]) =>
          (a.name !== name && b.name !== name) || separated.get(pairKey({ a: a.name, b: b.name })),
      ),
  };
}

function pairsFromSwaps(swap: SwapTestResult, levels: PersonasLevels): PairChange[] {
  return swap.pairs.map((pair) => ({
    a: pair.a,
    b: pair.b,
    baseline: { crossings: pair.baseline.hits, answers: pair.baseline.answers },
    candidate: { crossings: pair.candidate.hits, answers: pair.candidate.answers },
    aAsB: pair.aAsB,
    bAsA: pair.bAsA,
    p: pair.p,
    adjusted: pair.adjusted,
    separated: pair.separated,
    dispersion: pair.dispersion,
    merged: pairMerged(pair.baseline, pair.candidate, pair.adjusted, levels),
  }));
}

function pairsBonferroni(compared: Compared): PairChange[] {
  const { assistants, baseline, candidate, levels } = compared;
  const index = new Map(assistants.map((a, i) => [a.name, i]));
  const separation = baselineSeparation(assistants, baseline);
  const probes = bothProbeCounts(compared);
  const crossing = (model: PersonasModelResult, i: number, j: number) => {
    const aAsB = model.confusion[i]?.[j] ?? 0;
    const bAsA = model.confusion[j]?.[i] ?? 0;
    return {
      aAsB,
      bAsA,
      crossings: aAsB + bAsA,
      answers: answersOf(model, i) + answersOf(model, j),
    };
  };
  return testedPairs(assistants).map(([a, b]) => {
    const i = index.get(a.name) ?? 0;
    const j = index.get(b.name) ?? 0;
    const before = crossing(baseline, i, j);
    const after = crossing(candidate, i, j);
    const dispersion = probes
      ? probeDispersion(
          probes.candidate.crossing(a.name, b.name),
          probes.baseline.crossing(a.name, b.name),
        )
      : 1;
    const crossed = (c: typeof before) => ({ hits: c.crossings, answers: c.answers });
    const p = shrunkOneSidedP(largerShareP(crossed(after), crossed(before)), dispersion);
    const separated = separation.pair(a.name, b.name);
    // Bonferroni over every pair, tested or not: the count is fixed before the data.
    const adjusted = separated ? Math.min(1, p * levels.pairTests) : null;
    return {
      a: a.name,
      b: b.name,
      baseline: { crossings: before.crossings, answers: before.answers },
      candidate: { crossings: after.crossings, answers: after.answers },
      aAsB: after.aAsB,
      bAsA: after.bAsA,
      p,
      adjusted,
      separated,
      ...(probes ? { dispersion } : {}),
      merged: pairMerged(crossed(before), crossed(after), adjusted, levels),
    };
  });
}

/** Recognised answers up to controls, as counts (the share times the answers). */
function countsOf(r: Recognised): {
  recognised: number;
  answers: number;
} {
  if (!r || r.answers === 0 || r.shareUpToControls === null) return { recognised: 0, answers: 0 };
  return { recognised: Math.round(r.shareUpToControls * r.answers), answers: r.answers };
}

function hits(c: { recognised: number; answers: number }): { hits: number; answers: number } {
  return { hits: c.recognised, answers: c.answers };
}

function shareOf(c: { recognised: number; answers: number }): number | null {
  return c.answers > 0 ? c.recognised / c.answers : null;
}

/**
 * Both models' counts probe by probe, for the dispersion that shrinks the nightly p-values as
 * in the swap test; null when either section has no attribution rows (pooled counts alone).
 */
function bothProbeCounts({
  assistants,
  baseline,
  candidate,
}: Compared): { baseline: ProbeCounts; candidate: ProbeCounts } | null {
  const before = probeCounts(assistants, baseline);
  const after = probeCounts(assistants, candidate);
  return before && after ? { baseline: before, candidate: after } : null;
}

function answersOf(model: PersonasModelResult, i: number): number {
  return (model.confusion[i] ?? []).reduce((s, v) => s + v, 0) + (model.unattributed[i] ?? 0);
}

function pairKey(pair: { a: string; b: string }): string {
  return `${pair.a}\u0000${pair.b}`;
}

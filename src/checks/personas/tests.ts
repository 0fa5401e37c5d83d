/**
 * The personas gate rules as tests between baseline and candidate. Both rules read counts of
 * answers (attributed to their author, or crossing between two assistants) out of the answers
 * each model gave, and compare the two models with a one-sided Fisher exact test:
 *
 * - recognition: an assistant recognised in x₀ of n₀ answers by the baseline and x₁ of n₁ by
 *   the candidate has dropped when P(≥ x₀ | margins), adjusted, ≤ α_r, and the drop crosses
 *   min-recognition (baseline at or above it, candidate below it);
 * - merge: a pair whose answers cross (a taken for b, b taken for a) in c₀ of m₀ answers on the
 *   baseline and c₁ of m₁ on the candidate has merged when P(≥ c₁ | margins), adjusted, ≤ α_m and the
 *   crossing share rose by at least min-crossing-rise.
 *
 * The check's share of the false-alarm budget is split equally between the two rules; within
 * a rule, the p-values of its assistants (or pairs) are adjusted together: by the swap
 * permutation's min-p method when both models' answers are at hand (swapTest.ts), by
 * Bonferroni when the baseline comes from a previous report. Controls and the pairs a control
 * forms with its twin are not tested: they never fail the gate.
 */
import { shareDifferenceDispersion, shrunkOneSidedP } from '../../stats/dispersion.js';
import { fisherExactGreater } from '../../stats/fisher.js';
import { type ProbeCount, total } from './jointAttribution.js';
import type { PersonasAssistant, PersonasLevels } from './section.js';
import type { PersonasSettings } from './settings.js';

/** Rules of the check that can fail the gate: the budget is split between them. */
export const FAILING_RULES = ['min-recognition', 'merged-pair'] as const;

export function testedPairs(
  assistants: readonly PersonasAssistant[],
): [PersonasAssistant, PersonasAssistant][] {
  const pairs: [PersonasAssistant, PersonasAssistant][] = [];
  for (let i = 0; i < assistants.length; i++) {
    for (let j = i + 1; j < assistants.length; j++) {
      const a = assistants[i] as PersonasAssistant;
      const b = assistants[j] as PersonasAssistant;
      if (!a.control && !b.control) pairs.push([a, b]);
    }
  }
  return pairs;
}

export function personasLevels(
  assistants: readonly PersonasAssistant[],
  gate: Pick<PersonasSettings['gate'], 'minRecognition' | 'minCrossingRise'>,
  budget: number,
): PersonasLevels {
  const perRule = budget / FAILING_RULES.length;
  return {
    budget,
    recognitionTests: assistants.filter((a) => !a.control).length,
    recognitionAlpha: perRule,
    pairTests: testedPairs(assistants).length,
    mergeAlpha: perRule,
    minRecognition: gate.minRecognition,
    minCrossingRise: gate.minCrossingRise,
  };
}

const fisherMemo = new Map<string, number>();

/** Memoised: the same small tables come back thousands of times across swaps. */
function fisherGreater(a: number, b: number, c: number, d: number): number {
  const key = `${a},${b},${c},${d}`;
  let p = fisherMemo.get(key);
  if (p === undefined) {
    if (fisherMemo.size > 200_000) fisherMemo.clear();
    p = fisherExactGreater(a, b, c, d);
    fisherMemo.set(key, p);
  }
  return p;
}

/** One-sided p that `more` hits a larger share of its answers than `fewer` (1 without answers). */
export function largerShareP(more: ProbeCount, fewer: ProbeCount): number {
  if (more.answers === 0 || fewer.answers === 0) return 1;
  return fisherGreater(more.hits, more.answers - more.hits, fewer.hits, fewer.answers - fewer.hits);
}

/**
 * The separation the baseline shows between two assistants: their answers were taken for
 * their own author (up to controls) more often than for the other. Two assistants answering
 * from one distribution cross at least as often as they are recognised (leave-one-out takes an
 * answer out of its own centroid only), so a pair the model already treats alike is not
 * separated and has no separation to lose.
 */
export function pairSeparated(
  crossings: number,
  recognisedA: number,
  recognisedB: number,
): boolean {
  return crossings < recognisedA + recognisedB;
}

/**
 * How much the probes disagree about a share expected to be larger on one side (φ ≥ 1,
 * stats/dispersion.ts): 1 when they agree as well as independent answers would.
 */
export function probeDispersion(more: readonly ProbeCount[], fewer: readonly ProbeCount[]): number {
  return shareDifferenceDispersion(
    more.map((m, s) => ({
      hits0: fewer[s]?.hits ?? 0,
      answers0: fewer[s]?.answers ?? 0,
      hits1: m.hits,
      answers1: m.answers,
    })),
  );
}

/**
 * The swap test's statistic on per-probe counts: the pooled one-sided p that `more` hits a
 * larger share than `fewer` (the baseline's recognition against the candidate's, the
 * candidate's crossings against the baseline's), shrunk by the probes' dispersion.
 */
export function shareRiseTest(
  more: readonly ProbeCount[],
  fewer: readonly ProbeCount[],
): { p: number; dispersion: number } {
  const dispersion = probeDispersion(more, fewer);
  const p = largerShareP(total(more), total(fewer));
  return { p: shrunkOneSidedP(p, dispersion), dispersion };
}

/** The recognition rule's decision: a significant drop that crosses min-recognition. */
export function recognitionDropped(
  baseline: { hits: number; answers: number },
  candidate: { hits: number; answers: number },
  adjusted: number | null,
  levels: Pick<PersonasLevels, 'recognitionAlpha' | 'minRecognition'>,
): boolean {
  if (adjusted === null || baseline.answers === 0 || candidate.answers === 0) return false;
  const before = baseline.hits / baseline.answers;
  const after = candidate.hits / candidate.answers;
  return (
    before >= levels.minRecognition &&
    after < levels.minRecognition &&
    adjusted <= levels.recognitionAlpha
  );
}

/** The merge rule's decision: a significant rise of at least min-crossing-rise. */
export function pairMerged(
  baseline: { hits: number; answers: number },
  candidate: { hits: number; answers: number },
  adjusted: number | null,
  levels: Pick<PersonasLevels, 'mergeAlpha' | 'minCrossingRise'>,
): boolean {
  if (adjusted === null || baseline.answers === 0 || candidate.answers === 0) return false;
  const rise = candidate.hits / candidate.answers - baseline.hits / baseline.answers;
  // The margin keeps a rise of exactly min-crossing-rise from failing on rounding.
  return adjusted <= levels.mergeAlpha && rise >= levels.minCrossingRise - 1e-12;
}

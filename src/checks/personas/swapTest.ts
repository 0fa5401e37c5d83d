/**
 * Baseline vs candidate as a permutation test. Under "no change" (the candidate is the
 * baseline again), the baseline's answer and the candidate's answer to the same assistant,
 * probe and sample are exchangeable: swapping them is a labelling the null makes as likely as
 * the observed one. So the test attributes both models' answers, then swaps a random half of
 * the cells, attributes again, and so on; the observed counts are compared with the swapped
 * ones. This holds whatever the dependence between answers: attributions share centroids, so
 * crossings come in clusters and are more variable than a binomial count (a Fisher test on the
 * counts alone fails two identical models about 1.5 times as often as its level).
 *
 * Each test's statistic is its one-sided Fisher p on the counts (a standardised measure of a
 * drop in recognition, or of a rise in crossings), shrunk by how much the probes disagree
 * (tests.ts, stats/dispersion.ts): a difference carried by a few probes weighs less than one
 * every probe shows. The family's p-values are adjusted by the single-step min-p method
 * (Westfall & Young 1993): p̃ₖ = (1 + #{swaps whose smallest p in the family ≤ pₖ}) / (1 +
 * swaps). Rejecting p̃ₖ ≤ α fails two identical models in at most α of runs over the whole
 * family, without Bonferroni's loss when the tests are correlated.
 *
 * Only separations the baseline shows can fail: a pair when the baseline took its answers for
 * their own author more often than for the other, an assistant when the baseline told it
 * apart from every other one. A pair the model already treats alike crosses a lot and
 * unsteadily, and has no separation to lose: it stays in the family (its swaps take part in
 * the reference), it is never failed.
 *
 * Both models' answers are placed in one vector space (TF-IDF over the answers of both, or the
 * stored embeddings), so a swap only changes which rows each model's centroids are built
 * from. The counts shown for these tests therefore come from that shared space and can differ
 * by an answer or two from each model's own confusion matrix.
 */
import { createRng } from '../../stats/prng.js';
import { gramMatrix } from '../../stats/text/nearestCentroid.js';
import type { Vector } from '../../stats/text/vectors.js';
import type { CollectedAnswer } from './answers.js';
import {
  Attribution,
  attributedTo,
  type Confusion,
  crossingByProbe,
  type ProbeCount,
  recognisedByProbe,
  total,
} from './jointAttribution.js';
import type { PersonasAssistant } from './section.js';
import { pairSeparated, shareRiseTest, testedPairs } from './tests.js';

export interface SwapTestInput {
  assistants: readonly PersonasAssistant[];
  baseline: readonly CollectedAnswer[];
  candidate: readonly CollectedAnswer[];
  /** One vector per answer: baseline answers first, then the candidate's, in one space. */
  rows: readonly Vector[];
  swaps: number;
  seed: number;
}

export interface Counts {
  /** Recognised (up to controls) or crossing answers. */
  hits: number;
  answers: number;
}

/** What every test reports: its counts, statistic and adjusted p. */
export interface SwapTestOutcome {
  baseline: Counts;
  candidate: Counts;
  /** The probes' dispersion φ ≥ 1 the Fisher p was shrunk by. */
  dispersion: number;
  /** One-sided Fisher p on the counts, shrunk by the dispersion. */
  p: number;
  /** False: the baseline did not tell this pair (or assistant) apart; not tested. */
  separated: boolean;
  /** p adjusted over the family (min-p over swaps); null when not tested. */
  adjusted: number | null;
}

export interface SwapTestResult {
  swaps: number;
  /** Cells answered by both models: the ones a swap can exchange. */
  pairedCells: number;
  recognition: ({ assistant: string } & SwapTestOutcome)[];
  pairs: ({ a: string; b: string; aAsB: number; bAsA: number } & SwapTestOutcome)[];
}

export function swapTest(input: SwapTestInput): SwapTestResult {
  const { assistants, baseline, candidate, rows } = input;
  const total = rows.length;
  if (total !== baseline.length + candidate.length) {
    throw new RangeError(`${total} vectors for ${baseline.length + candidate.length} answers`);
  }
  const joint = [...baseline, ...candidate];
  // Members of each model, as joint indices; a cell answered by both can be swapped.
  const baseMembers = Int32Array.from(baseline.map((_, i) => i));
  const candMembers = Int32Array.from(candidate.map((_, i) => baseline.length + i));
  const cells = swappableCells(baseline, candidate);
  const design = testDesign(assistants);
  const attribution = new Attribution(
    gramMatrix(rows),
    Int32Array.from(joint.map((a) => a.assistant)),
    Int32Array.from(joint.map((a) => a.probe)),
    assistants.length,
  );
  const statistics = () =>
    familyStatistics(
      attribution.confusion(baseMembers),
      attribution.confusion(candMembers),
      design,
    );

  const observed = statistics();
  const recognitionBelow = new Array<number>(design.tested.length).fill(0);
  const pairsBelow = new Array<number>(design.pairs.length).fill(0);
  const rng = createRng(input.seed);
  for (let s = 0; s < input.swaps; s++) {
    for (const [i, k] of cells) {
      const swap = rng.next() < 0.5;
      baseMembers[i] = swap ? baseline.length + k : i;
      candMembers[k] = swap ? i : baseline.length + k;
    }
    const drawn = statistics();
    countBelow(observed.recognition, smallestOfFamily(drawn.recognition), recognitionBelow);
    countBelow(observed.pairs, smallestOfFamily(drawn.pairs), pairsBelow);
  }
  const adjust = (count: number) => (1 + count) / (1 + input.swaps);
  return {
    swaps: input.swaps,
    pairedCells: cells.length,
    ...swapResults(assistants, design, observed, {
      recognition: recognitionBelow.map(adjust),
      pairs: pairsBelow.map(adjust),
    }),
  };
}

/** A test on one labelling: its counts and p, and whether the baseline separates it. */
interface TestStatistic {
  baseline: ProbeCount;
  candidate: ProbeCount;
  dispersion: number;
  p: number;
  separated: boolean;
}

/** Both models' confusion on one labelling, and every test's statistic on it. */
interface FamilyStatistics {
  before: Confusion;
  after: Confusion;
  recognition: TestStatistic[];
  pairs: TestStatistic[];
}

function familyStatistics(before: Confusion, after: Confusion, design: Design): FamilyStatistics {
  const own = design.controlsOf.map((controls, i) => recognisedByProbe(before, i, controls));
  const pairs = design.pairs.map(([i, j]) => {
    const baseline = crossingByProbe(before, i, j);
    const candidate = crossingByProbe(after, i, j);
    const separated = pairSeparated(
      total(baseline).hits,
      total(own[i] ?? []).hits,
      total(own[j] ?? []).hits,
    );
    return statistic(baseline, candidate, separated, shareRiseTest(candidate, baseline));
  });
  const recognition = design.tested.map((i) => {
    const separated = design.pairs.every(
      ([a, b], t) => (a !== i && b !== i) || pairs[t]?.separated,
    );
    const candidate = recognisedByProbe(after, i, design.controlsOf[i] ?? []);
    const baseline = own[i] ?? [];
    return statistic(baseline, candidate, separated, shareRiseTest(baseline, candidate));
  });
  return { before, after, recognition, pairs };
}

function statistic(
  baseline: readonly ProbeCount[],
  candidate: readonly ProbeCount[],
  separated: boolean,
  { p, dispersion }: { p: number; dispersion: number },
): TestStatistic {
  return { baseline: total(baseline), candidate: total(candidate), dispersion, p, separated };
}

/**
 * The smallest p of the family on a swapped labelling: over every test, separated or not. The
 * family is fixed before the data; the guard only decides which tests may fail. Keeping the
 * unseparated tests in the reference costs power only where the model already treats a pair
 * alike, and keeps the rules' rates below their share in such catalogues.
 */
function smallestOfFamily(tests: readonly TestStatistic[]): number {
  let smallest = 1;
  for (const t of tests) if (t.p < smallest) smallest = t.p;
  return smallest;
}

function countBelow(observed: readonly TestStatistic[], smallest: number, below: number[]): void {
  observed.forEach((t, k) => {
    if (smallest <= t.p * (1 + 1e-9)) below[k] = (below[k] ?? 0) + 1;
  });
}

/** Cells (assistant, probe, sample) both models answered: [baseline index, candidate index]. */
function swappableCells(
  baseline: readonly CollectedAnswer[],
  candidate: readonly CollectedAnswer[],
): [number, number][] {
  const slotOf = new Map<string, number>();
  baseline.forEach((a, i) => {
    slotOf.set(cellKey(a), i);
  });
  const cells: [number, number][] = [];
  candidate.forEach((a, k) => {
    const i = slotOf.get(cellKey(a));
    if (i !== undefined) cells.push([i, k]);
  });
  return cells;
}

/** Which assistants and pairs are tested, and each assistant's controls. */
function testDesign(assistants: readonly PersonasAssistant[]) {
  const index = new Map(assistants.map((a, i) => [a.name, i]));
  return {
    controlsOf: assistants.map((assistant) =>
      assistants.flatMap((other, j) => (other.control?.of === assistant.name ? [j] : [])),
    ),
    tested: assistants.flatMap((a, i) => (a.control ? [] : [i])),
    pairs: testedPairs(assistants).map(
      ([a, b]) => [index.get(a.name) ?? 0, index.get(b.name) ?? 0] as const,
    ),
  };
}

type Design = ReturnType<typeof testDesign>;

/**
 * The swap reference is exact when the two models' answers to one cell are exchangeable. Two
 * models alike only in distribution (each with words of its own, probe by probe) differ at
 * every probe by chance: a pair's crossing share then moves between the models more than any
 * swap of answers moves it, and on coarse counts, where the swaps make a one-sided Fisher p of
 * 0.02 rare, a chance difference at a few probes ranks as significant. So a test's adjusted p
 * is never below its own p, shrunk by the probes' dispersion: a level the test holds when the
 * probes, not the answers, are what the two models may exchange.
 */
function outcome(t: TestStatistic, adjusted: number | undefined): SwapTestOutcome {
  return {
    baseline: t.baseline,
    candidate: t.candidate,
    dispersion: t.dispersion,
    p: t.p,
    separated: t.separated,
    adjusted: t.separated ? Math.max(adjusted ?? 1, t.p) : null,
  };
}

function swapResults(
  assistants: readonly PersonasAssistant[],
  { tested, pairs }: Design,
  observed: FamilyStatistics,
  adjusted: { recognition: number[]; pairs: number[] },
): Pick<SwapTestResult, 'recognition' | 'pairs'> {
  return {
    recognition: tested.map((i, t) => ({
      assistant: assistants[i]?.name ?? '',
      ...outcome(observed.recognition[t] as TestStatistic, adjusted.recognition[t]),
    })),
    pairs: pairs.map(([i, j], t) => ({
      a: assistants[i]?.name ?? '',
      b: assistants[j]?.name ?? '',
      aAsB: attributedTo(observed.after, i, j),
      bAsA: attributedTo(observed.after, j, i),
      ...outcome(observed.pairs[t] as TestStatistic, adjusted.pairs[t]),
    })),
  };
}

function cellKey(a: CollectedAnswer): string {
  return `${a.assistant}/${a.probe}/${a.sample}`;
}

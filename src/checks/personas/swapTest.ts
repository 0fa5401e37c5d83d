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
 * drop in recognition, or of a rise in crossings); the family's p-values are adjusted by the
 * single-step min-p method (Westfall & Young 1993): p̃ₖ = (1 + #{swaps whose smallest p in the
 * family ≤ pₖ}) / (1 + swaps). Rejecting p̃ₖ ≤ α fails two identical models in at most α of
 * runs over the whole family, without Bonferroni's loss when the tests are correlated.
 *
 * Both models' answers are placed in one vector space (TF-IDF over the answers of both, or the
 * stored embeddings), so a swap only changes which rows each model's centroids are built
 * from. The counts shown for these tests therefore come from that shared space and can differ
 * by an answer or two from each model's own confusion matrix.
 */
import { createRng } from '../../stats/prng.js';
import type { Vector } from '../../stats/text/vectors.js';
import { dot } from '../../stats/text/vectors.js';
import type { CollectedAnswer } from './answers.js';
import type { PersonasAssistant } from './section.js';
import { crossingRiseP, recognitionDropP, testedPairs } from './tests.js';

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

export interface SwapTestResult {
  swaps: number;
  /** Cells answered by both models: the ones a swap can exchange. */
  pairedCells: number;
  recognition: {
    assistant: string;
    baseline: Counts;
    candidate: Counts;
    p: number;
    adjusted: number;
  }[];
  pairs: {
    a: string;
    b: string;
    baseline: Counts;
    candidate: Counts;
    aAsB: number;
    bAsA: number;
    p: number;
    adjusted: number;
  }[];
}

/** Two cosines closer than this are a tie, as in the per-model attribution. */
const TIE = 1e-12;

export function swapTest(input: SwapTestInput): SwapTestResult {
  const { assistants, baseline, candidate, rows } = input;
  const total = rows.length;
  if (total !== baseline.length + candidate.length) {
    throw new RangeError(`${total} vectors for ${baseline.length + candidate.length} answers`);
  }
  const labels = Int32Array.from([...baseline, ...candidate].map((a) => a.assistant));
  // Members of each model, as joint indices; a cell answered by both can be swapped.
  const baseMembers = Int32Array.from(baseline.map((_, i) => i));
  const candMembers = Int32Array.from(candidate.map((_, i) => baseline.length + i));
  const cells = swappableCells(baseline, candidate);
  const design = testDesign(assistants);
  const attribution = new Attribution(gramMatrix(rows), total, labels, assistants.length);
  const statistics = (): { recognition: number[]; pairs: number[] } => {
    const before = attribution.confusion(baseMembers);
    const after = attribution.confusion(candMembers);
    return {
      recognition: design.tested.map((i) =>
        recognitionDropP(
          recognised(before, i, design.controlsOf[i] ?? []),
          recognised(after, i, design.controlsOf[i] ?? []),
        ),
      ),
      pairs: design.pairs.map(([i, j]) =>
        crossingRiseP(crossing(before, i, j), crossing(after, i, j)),
      ),
    };
  };

  const observed: Observed = {
    before: attribution.confusion(baseMembers),
    after: attribution.confusion(candMembers),
    ...statistics(),
  };
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
    const minRecognition = Math.min(...drawn.recognition, 1);
    const minPair = Math.min(...drawn.pairs, 1);
    observed.recognition.forEach((p, t) => {
      if (minRecognition <= p * (1 + 1e-9)) recognitionBelow[t] = (recognitionBelow[t] ?? 0) + 1;
    });
    observed.pairs.forEach((p, t) => {
      if (minPair <= p * (1 + 1e-9)) pairsBelow[t] = (pairsBelow[t] ?? 0) + 1;
    });
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

/** Dot products of every pair of rows (cosines, for unit vectors). */
function gramMatrix(rows: readonly Vector[]): Float64Array {
  const total = rows.length;
  const gram = new Float64Array(total * total);
  for (let i = 0; i < total; i++) {
    for (let j = i; j < total; j++) {
      const value = dot(rows[i] ?? [], rows[j] ?? []);
      gram[i * total + j] = value;
      gram[j * total + i] = value;
    }
  }
  return gram;
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

/** Both models' confusion on the observed labelling, and each test's p-value on it. */
interface Observed {
  before: Confusion;
  after: Confusion;
  recognition: number[];
  pairs: number[];
}

function swapResults(
  assistants: readonly PersonasAssistant[],
  { controlsOf, tested, pairs }: Design,
  observed: Observed,
  adjusted: { recognition: number[]; pairs: number[] },
): Pick<SwapTestResult, 'recognition' | 'pairs'> {
  const classCount = assistants.length;
  return {
    recognition: tested.map((i, t) => {
      const b = recognised(observed.before, i, controlsOf[i] ?? []);
      const c = recognised(observed.after, i, controlsOf[i] ?? []);
      return {
        assistant: assistants[i]?.name ?? '',
        baseline: { hits: b.recognised, answers: b.answers },
        candidate: { hits: c.recognised, answers: c.answers },
        p: observed.recognition[t] ?? 1,
        adjusted: adjusted.recognition[t] as number,
      };
    }),
    pairs: pairs.map(([i, j], t) => {
      const b = crossing(observed.before, i, j);
      const c = crossing(observed.after, i, j);
      return {
        a: assistants[i]?.name ?? '',
        b: assistants[j]?.name ?? '',
        baseline: { hits: b.crossings, answers: b.answers },
        candidate: { hits: c.crossings, answers: c.answers },
        aAsB: observed.after.counts[i * classCount + j] ?? 0,
        bAsA: observed.after.counts[j * classCount + i] ?? 0,
        p: observed.pairs[t] ?? 1,
        adjusted: adjusted.pairs[t] as number,
      };
    }),
  };
}

function cellKey(a: CollectedAnswer): string {
  return `${a.assistant}/${a.probe}/${a.sample}`;
}

interface Confusion {
  classCount: number;
  /** counts[true · classCount + attributed]. */
  counts: Int32Array;
  /** Answers per true author, attributed or not. */
  answers: Int32Array;
}

function recognised(
  confusion: Confusion,
  i: number,
  controls: readonly number[],
): { recognised: number; answers: number } {
  const row = i * confusion.classCount;
  let hits = confusion.counts[row + i] ?? 0;
  for (const c of controls) hits += confusion.counts[row + c] ?? 0;
  return { recognised: hits, answers: confusion.answers[i] ?? 0 };
}

function crossing(
  confusion: Confusion,
  i: number,
  j: number,
): { crossings: number; answers: number } {
  const k = confusion.classCount;
  return {
    crossings: (confusion.counts[i * k + j] ?? 0) + (confusion.counts[j * k + i] ?? 0),
    answers: (confusion.answers[i] ?? 0) + (confusion.answers[j] ?? 0),
  };
}

/**
 * Leave-one-out nearest-centroid attribution of a subset of the answers, from the joint Gram
 * matrix: the same rule as stats/text/nearestCentroid.ts (cosine to each centroid without the
 * answer, ties to the lowest index, no attribution when every centroid is equally near), on
 * flat typed arrays because it runs twice per swap.
 */
class Attribution {
  private readonly toward: Float64Array;
  private readonly length: Float64Array;
  private readonly size: Int32Array;

  constructor(
    private readonly gram: Float64Array,
    private readonly total: number,
    private readonly labels: Int32Array,
    private readonly classCount: number,
  ) {
    this.toward = new Float64Array(total * classCount);
    this.length = new Float64Array(classCount);
    this.size = new Int32Array(classCount);
  }

  confusion(members: Int32Array): Confusion {
    const { gram, total, labels, classCount, toward, length, size } = this;
    const n = members.length;
    toward.fill(0, 0, n * classCount);
    length.fill(0);
    size.fill(0);
    for (let a = 0; a < n; a++) {
      const row = (members[a] as number) * total;
      const out = a * classCount;
      for (let b = 0; b < n; b++) {
        const j = members[b] as number;
        const k = out + (labels[j] as number);
        toward[k] = (toward[k] as number) + (gram[row + j] as number);
      }
    }
    for (let a = 0; a < n; a++) {
      const c = labels[members[a] as number] as number;
      size[c] = (size[c] as number) + 1;
      length[c] = (length[c] as number) + (toward[a * classCount + c] as number);
    }
    const counts = new Int32Array(classCount * classCount);
    const answers = new Int32Array(classCount);
    for (let a = 0; a < n; a++) {
      const i = members[a] as number;
      const own = labels[i] as number;
      const self = gram[i * total + i] as number;
      answers[own] = (answers[own] as number) + 1;
      let best = -1;
      let bestValue = Number.NEGATIVE_INFINITY;
      let first = Number.NaN;
      let allEqual = true;
      let candidates = 0;
      for (let c = 0; c < classCount; c++) {
        const isOwn = c === own;
        const others = (size[c] as number) - (isOwn ? 1 : 0);
        const t = toward[a * classCount + c] as number;
        const s = t - (isOwn ? self : 0);
        const q = (length[c] as number) - (isOwn ? 2 * t - self : 0);
        if (others === 0 || q <= TIE || self <= 0) continue;
        const value = s / Math.sqrt(self * q);
        candidates++;
        if (Number.isNaN(first)) first = value;
        else if (Math.abs(value - first) > TIE) allEqual = false;
        if (value > bestValue + TIE) {
          best = c;
          bestValue = value;
        }
      }
      if (best < 0 || (candidates > 1 && allEqual)) continue;
      counts[own * classCount + best] = (counts[own * classCount + best] as number) + 1;
    }
    return { classCount, counts, answers };
  }
}

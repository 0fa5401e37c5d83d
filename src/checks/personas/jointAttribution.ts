/**
 * Leave-one-out nearest-centroid attribution of a subset of the answers of both models, from
 * their joint Gram matrix, by the per-model rule (stats/text/nearestCentroid.ts: cosine to each
 * centroid without the answer, ties to the lowest index, no attribution when every centroid is
 * equally near), its buffers reused because the swap test runs it twice per swap. The counts
 * are kept per probe: the tests read how much the probes disagree (stats/dispersion.ts).
 */
import { ClassSums, type Gram } from '../../stats/text/nearestCentroid.js';

export interface Confusion {
  classCount: number;
  probeCount: number;
  /** counts[(probe · classCount + true author) · classCount + attributed]. */
  counts: Int32Array;
  /** answers[probe · classCount + true author], attributed or not. */
  answers: Int32Array;
}

/** One probe's count: hits (recognised, or crossing) out of answers. */
export interface ProbeCount {
  hits: number;
  answers: number;
}

/** An assistant's answers attributed to itself or one of its controls, probe by probe. */
export function recognisedByProbe(
  confusion: Confusion,
  i: number,
  controls: readonly number[],
): ProbeCount[] {
  const { classCount: m, counts, answers } = confusion;
  return Array.from({ length: confusion.probeCount }, (_, p) => {
    const row = (p * m + i) * m;
    let hits = counts[row + i] ?? 0;
    for (const c of controls) hits += counts[row + c] ?? 0;
    return { hits, answers: answers[p * m + i] ?? 0 };
  });
}

/** Answers of i taken for j plus answers of j taken for i, of the two's answers, probe by probe. */
export function crossingByProbe(confusion: Confusion, i: number, j: number): ProbeCount[] {
  const { classCount: m, counts, answers } = confusion;
  return Array.from({ length: confusion.probeCount }, (_, p) => ({
    hits: (counts[(p * m + i) * m + j] ?? 0) + (counts[(p * m + j) * m + i] ?? 0),
    answers: (answers[p * m + i] ?? 0) + (answers[p * m + j] ?? 0),
  }));
}

/** The probes' counts added up. */
export function total(counts: readonly ProbeCount[]): ProbeCount {
  let hits = 0;
  let answers = 0;
  for (const c of counts) {
    hits += c.hits;
    answers += c.answers;
  }
  return { hits, answers };
}

/** Answers of i attributed to j over all probes. */
export function attributedTo(confusion: Confusion, i: number, j: number): number {
  const m = confusion.classCount;
  let sum = 0;
  for (let p = 0; p < confusion.probeCount; p++) sum += confusion.counts[(p * m + i) * m + j] ?? 0;
  return sum;
}

export class Attribution {
  private readonly sums: ClassSums;
  private readonly probeCount: number;

  constructor(
    gram: Gram,
    /** Author and probe of each joint row. */
    private readonly labels: Int32Array,
    private readonly probes: Int32Array,
    private readonly classCount: number,
  ) {
    this.sums = new ClassSums(gram, classCount);
    this.probeCount = probes.reduce((most, p) => Math.max(most, p + 1), 0);
  }

  /** The confusion of the answers `members` (joint row indices) among themselves. */
  confusion(members: Int32Array): Confusion {
    const { labels, probes, classCount, probeCount, sums } = this;
    sums.fill(labels, members);
    const counts = new Int32Array(probeCount * classCount * classCount);
    const answers = new Int32Array(probeCount * classCount);
    for (let a = 0; a < members.length; a++) {
      const i = members[a] as number;
      const cell = (probes[i] as number) * classCount + (labels[i] as number);
      answers[cell] = (answers[cell] as number) + 1;
      const best = sums.nearest(a);
      if (best >= 0)
        counts[cell * classCount + best] = (counts[cell * classCount + best] as number) + 1;
    }
    return { classCount, probeCount, counts, answers };
  }
}

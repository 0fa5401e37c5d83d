/**
 * Leave-one-out nearest-centroid attribution of a subset of the answers of both models, from
 * their joint Gram matrix: the same rule as stats/text/nearestCentroid.ts (cosine to each
 * centroid without the answer, ties to the lowest index, no attribution when every centroid is
 * equally near), on flat typed arrays because the swap test runs it twice per swap. The counts
 * are kept per probe: the tests read how much the probes disagree (stats/dispersion.ts).
 */

/** Two cosines closer than this are a tie, as in the per-model attribution. */
const TIE = 1e-12;

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
  private readonly toward: Float64Array;
  private readonly length: Float64Array;
  private readonly size: Int32Array;
  private readonly probeCount: number;

  constructor(
    private readonly gram: Float64Array,
    /** Author and probe of each joint row. */
    private readonly labels: Int32Array,
    private readonly probes: Int32Array,
    private readonly classCount: number,
  ) {
    this.toward = new Float64Array(labels.length * classCount);
    this.length = new Float64Array(classCount);
    this.size = new Int32Array(classCount);
    this.probeCount = probes.reduce((most, p) => Math.max(most, p + 1), 0);
  }

  /** The confusion of the answers `members` (joint row indices) among themselves. */
  confusion(members: Int32Array): Confusion {
    this.centroids(members);
    const { labels, probes, classCount, probeCount } = this;
    const counts = new Int32Array(probeCount * classCount * classCount);
    const answers = new Int32Array(probeCount * classCount);
    for (let a = 0; a < members.length; a++) {
      const i = members[a] as number;
      const own = labels[i] as number;
      const cell = (probes[i] as number) * classCount + own;
      answers[cell] = (answers[cell] as number) + 1;
      const best = this.nearest(a, i);
      if (best >= 0)
        counts[cell * classCount + best] = (counts[cell * classCount + best] as number) + 1;
    }
    return { classCount, probeCount, counts, answers };
  }

  /** Each member's dot product with every class sum, and each class sum's squared length. */
  private centroids(members: Int32Array): void {
    const { gram, labels, classCount, toward, length, size } = this;
    const n = members.length;
    const total = labels.length;
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
  }

  /** The class member a (joint row i) is attributed to, or −1 when none is nearer. */
  private nearest(a: number, i: number): number {
    const { gram, labels, classCount, toward, length, size } = this;
    const own = labels[i] as number;
    const self = gram[i * labels.length + i] as number;
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
    return candidates > 1 && allEqual ? -1 : best;
  }
}

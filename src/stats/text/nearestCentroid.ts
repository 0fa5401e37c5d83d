/**
 * Leave-one-out nearest-centroid attribution: hide who wrote one answer, build each author's
 * centroid from their *other* answers, and give the answer to the centroid with the highest
 * cosine. Leaving the answer out of its own centroid is what makes the score honest: with it
 * in, every answer partly resembles itself.
 *
 * Everything is computed from the Gram matrix G[i][j] = x_i · x_j, because the centroid of a
 * class without answer i points the same way as the sum of its other rows:
 *
 *   s_ic = Σ_{j∈c, j≠i} G[i][j]                 (x_i · that sum)
 *   q_ic = Σ_{j,k∈c, j,k≠i} G[j][k]             (squared length of that sum)
 *   cos(x_i, centroid_c without i) = s_ic / (|x_i| · √q_ic)
 *
 * With the Gram matrix at hand, relabelling the answers (the permutation null) costs O(n²)
 * per relabelling instead of rebuilding every centroid.
 */
import { dot, type Vector } from './vectors.js';

export interface CentroidAttribution {
  /** Attributed class per answer; null when every centroid is equally near (no signal). */
  attributed: (number | null)[];
  /** Cosine to the attributed centroid; null with the attribution. */
  similarity: (number | null)[];
}

/** Two cosines closer than this are a tie (rounding differs between equal sums). */
const TIE = 1e-12;

export function gramMatrix(rows: readonly Vector[]): number[][] {
  const gram = rows.map(() => new Array<number>(rows.length).fill(0));
  rows.forEach((a, i) => {
    for (let j = i; j < rows.length; j++) {
      const value = dot(a, rows[j] ?? []);
      (gram[i] as number[])[j] = value;
      (gram[j] as number[])[i] = value;
    }
  });
  return gram;
}

export function leaveOneOutNearestCentroid(
  rows: readonly Vector[],
  labels: readonly number[],
  classCount: number,
): CentroidAttribution {
  return attributeFromGram(gramMatrix(rows), labels, classCount);
}

/**
 * The attribution from a Gram matrix. Ties between the nearest centroids go to the class
 * with the lowest index (catalogue order), so the result never depends on rounding noise.
 */
export function attributeFromGram(
  gram: readonly (readonly number[])[],
  labels: readonly number[],
  classCount: number,
): CentroidAttribution {
  const n = labels.length;
  if (gram.length !== n) throw new RangeError(`${gram.length} vectors for ${n} labels`);
  const { towardClass, classLength, members } = classSums(gram, labels, classCount);

  const attributed: (number | null)[] = [];
  const similarity: (number | null)[] = [];
  for (let i = 0; i < n; i++) {
    const own = labels[i] ?? -1;
    const self = gram[i]?.[i] ?? 0;
    const cosines: (number | null)[] = [];
    for (let c = 0; c < classCount; c++) {
      const isOwn = c === own;
      const others = (members[c] ?? 0) - (isOwn ? 1 : 0);
      const s = (towardClass[i]?.[c] ?? 0) - (isOwn ? self : 0);
      const q = (classLength[c] ?? 0) - (isOwn ? 2 * (towardClass[i]?.[c] ?? 0) - self : 0);
      cosines.push(others === 0 || q <= TIE || self <= 0 ? null : s / Math.sqrt(self * q));
    }
    const best = pickNearest(cosines);
    attributed.push(best);
    similarity.push(best === null ? null : (cosines[best] ?? null));
  }
  return { attributed, similarity };
}

/** Share of answers attributed to their own class. */
export function accuracyFromGram(
  gram: readonly (readonly number[])[],
  labels: readonly number[],
  classCount: number,
): number {
  if (labels.length === 0) return 0;
  const { attributed } = attributeFromGram(gram, labels, classCount);
  let correct = 0;
  attributed.forEach((c, i) => {
    if (c !== null && c === labels[i]) correct++;
  });
  return correct / labels.length;
}

function classSums(
  gram: readonly (readonly number[])[],
  labels: readonly number[],
  classCount: number,
): { towardClass: number[][]; classLength: number[]; members: number[] } {
  const n = labels.length;
  const members = new Array<number>(classCount).fill(0);
  for (const label of labels) {
    if (!Number.isInteger(label) || label < 0 || label >= classCount) {
      throw new RangeError(`label ${label} outside 0..${classCount - 1}`);
    }
    members[label] = (members[label] ?? 0) + 1;
  }
  // Plain typed-array loops: this runs once per relabelling of the permutation null.
  const label = Int32Array.from(labels);
  const towardClass: number[][] = [];
  const sums = new Float64Array(classCount);
  for (let i = 0; i < n; i++) {
    const g = gram[i] as readonly number[];
    sums.fill(0);
    for (let j = 0; j < n; j++) {
      const c = label[j] as number;
      sums[c] = (sums[c] as number) + (g[j] as number);
    }
    towardClass.push(Array.from(sums));
  }
  const classLength = new Array<number>(classCount).fill(0);
  for (let i = 0; i < n; i++) {
    const c = labels[i] ?? 0;
    classLength[c] = (classLength[c] ?? 0) + (towardClass[i]?.[c] ?? 0);
  }
  return { towardClass, classLength, members };
}

function pickNearest(cosines: readonly (number | null)[]): number | null {
  let best: number | null = null;
  let bestValue = Number.NEGATIVE_INFINITY;
  let allEqual = true;
  let firstValue: number | null = null;
  cosines.forEach((value, c) => {
    if (value === null) return;
    if (firstValue === null) firstValue = value;
    else if (Math.abs(value - firstValue) > TIE) allEqual = false;
    if (value > bestValue + TIE) {
      best = c;
      bestValue = value;
    }
  });
  const candidates = cosines.filter((v) => v !== null).length;
  // One candidate centroid is a real choice; several that are all equally near are not.
  return candidates > 1 && allEqual ? null : best;
}

/** Dense vector arithmetic for text vectors (TF-IDF rows, embeddings, centroids). */

export type Vector = readonly number[];

export function dot(a: Vector, b: Vector): number {
  if (a.length !== b.length) {
    throw new RangeError(`vectors of different lengths: ${a.length} and ${b.length}`);
  }
  let total = 0;
  for (let i = 0; i < a.length; i++) total += (a[i] ?? 0) * (b[i] ?? 0);
  return total;
}

export function norm(a: Vector): number {
  return Math.sqrt(dot(a, a));
}

/**
 * The vector scaled to length 1. A zero vector stays zero: a text with no counted word has
 * no direction, and dividing by zero would spread NaN through every cosine.
 */
export function normalise(a: Vector): number[] {
  const length = norm(a);
  return length === 0 ? a.map(() => 0) : a.map((v) => v / length);
}

/** Cosine similarity; 0 when either vector is zero (no shared direction to measure). */
export function cosine(a: Vector, b: Vector): number {
  const lengths = norm(a) * norm(b);
  return lengths === 0 ? 0 : dot(a, b) / lengths;
}

/** Component-wise mean of at least one vector of equal length. */
export function mean(vectors: readonly Vector[]): number[] {
  const first = vectors[0];
  if (first === undefined) throw new RangeError('mean of no vectors');
  const total = new Array<number>(first.length).fill(0);
  for (const v of vectors) {
    if (v.length !== first.length) {
      throw new RangeError(`vectors of different lengths: ${first.length} and ${v.length}`);
    }
    for (let i = 0; i < v.length; i++) total[i] = (total[i] ?? 0) + (v[i] ?? 0);
  }
  return total.map((v) => v / vectors.length);
}

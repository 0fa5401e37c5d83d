/**
 * Jaccard index |A ∩ B| / |A ∪ B| of two word sets: the naive overlap measure. It ranks pairs
 * but has no reference value that says when an overlap is too much.
 */
export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  // Two empty sets are the same set: overlap 1, so their distance 1 − J is 0.
  if (a.size === 0 && b.size === 0) return 1;
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const word of small) if (large.has(word)) shared++;
  return shared / (a.size + b.size - shared);
}

/** The symmetric matrix J[i][j] of every pair of sets (diagonal 1). */
export function jaccardMatrix(sets: readonly ReadonlySet<string>[]): number[][] {
  return sets.map((a, i) => sets.map((b, j) => (i === j ? 1 : jaccard(a, b))));
}

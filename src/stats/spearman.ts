/**
 * Spearman's rank correlation ρ: Pearson's correlation of the two rank vectors. Tied values
 * share the mean of the ranks they span, so the formula stays valid with ties (the shortcut
 * 1 − 6Σd²/(n(n²−1)) does not).
 */
import { sampleRankCorrelation } from 'simple-statistics';

/** Ranks 1..n (1 = smallest); ties get the average of the ranks they occupy. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]?.value === order[start]?.value) end++;
    // Positions start..end hold equal values: ranks start+1..end+1, averaged.
    const shared = (start + end) / 2 + 1;
    for (let i = start; i <= end; i++) ranks[order[i]?.index ?? 0] = shared;
    start = end + 1;
  }
  return ranks;
}

/**
 * ρ between two paired lists. Null when it is undefined: fewer than two pairs, or one list
 * constant (its ranks have no spread).
 */
export function spearman(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) {
    throw new RangeError(`spearman needs paired lists, got ${x.length} and ${y.length} values`);
  }
  if (x.length < 2) return null;
  const rho = sampleRankCorrelation(x as number[], y as number[]);
  return Number.isFinite(rho) ? rho : null;
}

/**
 * Pearson product-moment correlation of two paired samples (simple-statistics'
 * sampleCorrelation), with the edge cases the callers rely on: NaN when either sample has no
 * spread or there are fewer than two pairs (the correlation is undefined there, not 0).
 */
import { sampleCorrelation } from 'simple-statistics';

export function pearson(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) {
    throw new RangeError(`pearson needs samples of equal length, got ${x.length} and ${y.length}`);
  }
  if (x.length < 2) return Number.NaN;
  const r = sampleCorrelation(x as number[], y as number[]);
  return Number.isFinite(r) ? r : Number.NaN;
}

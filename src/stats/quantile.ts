/**
 * Sample quantile by linear interpolation between order statistics (Hyndman & Fan 1996,
 * definition 7; the default of R's quantile() and of NumPy): with the values sorted
 * ascending and h = (n − 1)·p, Q(p) = x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋), 0-based.
 *
 * simple-statistics computes it; this wrapper keeps NaN for an empty sample (no quantile
 * exists) instead of throwing, which is what the report's "not computed" fields expect.
 */
import { quantileSorted as ssQuantileSorted } from 'simple-statistics';

export function quantileSorted(sorted: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile needs p in [0, 1], got ${p}`);
  if (sorted.length === 0) return Number.NaN;
  return ssQuantileSorted(sorted as number[], p);
}

export function quantile(values: readonly number[], p: number): number {
  return quantileSorted(
    [...values].sort((a, b) => a - b),
    p,
  );
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

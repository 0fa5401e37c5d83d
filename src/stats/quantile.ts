/**
 * Sample quantile by linear interpolation between order statistics (Hyndman & Fan 1996,
 * definition 7; the default of R's quantile() and of NumPy): with the values sorted
 * ascending and h = (n − 1)·p, Q(p) = x_⌊h⌋ + (h − ⌊h⌋)(x_⌊h⌋+1 − x_⌊h⌋), 0-based.
 */
export function quantileSorted(sorted: readonly number[], p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`quantile needs p in [0, 1], got ${p}`);
  const n = sorted.length;
  if (n === 0) return Number.NaN;
  const h = (n - 1) * p;
  const below = Math.floor(h);
  const lower = sorted[below] as number;
  if (below + 1 >= n) return lower;
  return lower + (h - below) * ((sorted[below + 1] as number) - lower);
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

/**
 * Pearson product-moment correlation of two paired samples:
 *   r = Σ(x − x̄)(y − ȳ) / sqrt(Σ(x − x̄)² · Σ(y − ȳ)²)
 * NaN when either sample has no spread (the correlation is undefined there, not 0).
 */
export function pearson(x: readonly number[], y: readonly number[]): number {
  if (x.length !== y.length) {
    throw new RangeError(`pearson needs samples of equal length, got ${x.length} and ${y.length}`);
  }
  const n = x.length;
  if (n < 2) return Number.NaN;
  let meanX = 0;
  let meanY = 0;
  for (let i = 0; i < n; i++) {
    meanX += x[i] as number;
    meanY += y[i] as number;
  }
  meanX /= n;
  meanY /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = (x[i] as number) - meanX;
    const dy = (y[i] as number) - meanY;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  if (sxx === 0 || syy === 0) return Number.NaN;
  return sxy / Math.sqrt(sxx * syy);
}

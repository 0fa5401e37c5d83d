/**
 * Distribution-free confidence bounds for a median from order statistics (the sign test
 * inverted; Conover, Practical Nonparametric Statistics, 3rd ed., §3.2): the number of values
 * below the true median is Binomial(n, ½) whatever the distribution, so with the values sorted,
 * x₍ₖ₎ (1-based) lies below the median with probability P(B ≥ k) = 1 − P(B ≤ k − 1). The lower
 * bound at level α is the largest order statistic whose chance of exceeding the median is at
 * most α; heavy tails and outliers move it no more than they move a rank.
 */
import { binomialPmf } from './binomial.js';

export interface MedianBounds {
  /** The sample median. NaN when there are no values. */
  median: number;
  /** One-sided lower bound at level α; null when n is too small for any (2⁻ⁿ > α). */
  low: number | null;
  /** One-sided upper bound at level α; null likewise. */
  high: number | null;
}

/**
 * 1-based rank k of the lower bound: the largest k with P(B ≤ k − 1) ≤ α, B ~ Binomial(n, ½);
 * 0 when even P(B = 0) = 2⁻ⁿ exceeds α (no bound exists).
 */
export function lowerBoundRank(n: number, alpha: number): number {
  if (!(alpha > 0 && alpha < 0.5)) throw new RangeError(`α must lie in (0, 0.5), got ${alpha}`);
  let cumulative = 0;
  let rank = 0;
  // The median itself (k ≤ n/2) is as far as a bound at α < ½ can go.
  for (let k = 1; k <= Math.ceil(n / 2); k++) {
    cumulative += binomialPmf(k - 1, n, 0.5);
    // A level that is exactly a tail sum (11/1024) must not lose its rank to rounding.
    if (cumulative > alpha * (1 + 1e-12)) break;
    rank = k;
  }
  return rank;
}

/** The median of `values` with its one-sided lower and upper bounds, each at level α. */
export function medianBounds(values: readonly number[], alpha: number): MedianBounds {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: Number.NaN, low: null, high: null };
  const mid = Math.floor(n / 2);
  const median =
    n % 2 === 1
      ? (sorted[mid] as number)
      : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const k = lowerBoundRank(n, alpha);
  if (k === 0) return { median, low: null, high: null };
  return { median, low: sorted[k - 1] as number, high: sorted[n - k] as number };
}

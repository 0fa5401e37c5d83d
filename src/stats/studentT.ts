/**
 * Student's t distribution: cumulative distribution, quantile, and the t confidence interval
 * for a mean (used for the paired mean of per-item Δp).
 *
 *   P(T ≤ t) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½)   for t ≥ 0, by symmetry below 0.
 *
 * The quantile has closed forms for ν = 1 (Cauchy: tan(π(p − ½))) and ν = 2
 * ((2p − 1)/sqrt(2p(1 − p))); otherwise Newton steps on the CDF from the normal quantile,
 * kept inside a bracket by bisection so it always converges.
 */
import { logGamma, regularizedBeta } from './gamma.js';
import { normalQuantile } from './normal.js';
import { mean as ssMean, sampleStandardDeviation } from 'simple-statistics';

export function studentTCdf(t: number, df: number): number {
  assertDf(df);
  if (t === Number.POSITIVE_INFINITY) return 1;
  if (t === Number.NEGATIVE_INFINITY) return 0;
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? 1 - tail : tail;
}

export function studentTDensity(t: number, df: number): number {
  assertDf(df);
  const logDensity =
    logGamma((df + 1) / 2) -
    logGamma(df / 2) -
    0.5 * Math.log(df * Math.PI) -
    ((df + 1) / 2) * Math.log1p((t * t) / df);
  return Math.exp(logDensity);
}

export function studentTQuantile(p: number, df: number): number {
  assertDf(df);
  if (Number.isNaN(p) || p < 0 || p > 1) {
    throw new RangeError(`studentTQuantile needs a probability in [0, 1], got ${p}`);
  }
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  if (p === 0.5) return 0;
  if (df === 1) return Math.tan(Math.PI * (p - 0.5));
  if (df === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  // Solve in the upper half and mirror, so the bracket is [0, hi).
  if (p < 0.5) return -studentTQuantile(1 - p, df);
  let low = 0;
  let high = Math.max(1, 2 * normalQuantile(p));
  while (studentTCdf(high, df) < p) {
    low = high;
    high *= 2;
  }
  let t = Math.min(Math.max(normalQuantile(p), low), high);
  for (let i = 0; i < 200; i++) {
    const error = studentTCdf(t, df) - p;
    if (error > 0) high = t;
    else low = t;
    let next = t - error / studentTDensity(t, df);
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (Math.abs(next - t) <= 1e-15 * Math.max(1, Math.abs(t))) return next;
    t = next;
  }
  return t;
}

export interface MeanInterval {
  mean: number;
  low: number;
  high: number;
  /** Standard error of the mean (sample SD / sqrt(n)). */
  standardError: number;
  n: number;
}

/**
 * mean ± t_{1−(1−c)/2, n−1} · s/sqrt(n). Fewer than two values: the interval is undefined,
 * returned as NaN bounds (the mean is still given when n = 1).
 */
export function tInterval(values: readonly number[], confidence = 0.95): MeanInterval {
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`tInterval needs a confidence in (0, 1), got ${confidence}`);
  }
  const n = values.length;
  if (n === 0) {
    return { mean: Number.NaN, low: Number.NaN, high: Number.NaN, standardError: Number.NaN, n };
  }
  const mean = ssMean(values as number[]);
  if (n < 2) return { mean, low: Number.NaN, high: Number.NaN, standardError: Number.NaN, n };
  const standardError = sampleStandardDeviation(values as number[]) / Math.sqrt(n);
  const half = studentTQuantile(1 - (1 - confidence) / 2, n - 1) * standardError;
  return { mean, low: mean - half, high: mean + half, standardError, n };
}

function assertDf(df: number): void {
  if (!(df > 0)) throw new RangeError(`Student t needs degrees of freedom > 0, got ${df}`);
}

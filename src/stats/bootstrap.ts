/**
 * Percentile bootstrap (Efron & Tibshirani, An Introduction to the Bootstrap, 1993, §13.3):
 * resample the units with replacement, recompute the statistic, and take the (1−c)/2 and
 * 1−(1−c)/2 quantiles (definition 7, see quantile.ts) of the replicates as the interval.
 * Replicates whose statistic is not finite are dropped (a resample can lack what the
 * statistic needs); the count kept is returned.
 */
import type { Rng } from './prng.js';
import { quantileSorted } from './quantile.js';

export interface BootstrapInterval {
  estimate: number;
  low: number;
  high: number;
  replicates: number;
}

export function percentileBootstrap<T>(
  units: readonly T[],
  statistic: (resample: readonly T[]) => number,
  options: { rng: Rng; replicates: number; confidence?: number },
): BootstrapInterval {
  const confidence = options.confidence ?? 0.95;
  if (!(confidence > 0 && confidence < 1)) {
    throw new RangeError(`percentileBootstrap needs a confidence in (0, 1), got ${confidence}`);
  }
  const estimate = statistic(units);
  const n = units.length;
  if (n === 0) return { estimate, low: Number.NaN, high: Number.NaN, replicates: 0 };
  const values: number[] = [];
  const resample = new Array<T>(n);
  for (let r = 0; r < options.replicates; r++) {
    for (let i = 0; i < n; i++) resample[i] = units[options.rng.int(n)] as T;
    const value = statistic(resample);
    if (Number.isFinite(value)) values.push(value);
  }
  return percentileInterval(estimate, values, confidence);
}

/** The interval from replicate values (sorted in place): their (1−c)/2 and 1−(1−c)/2 quantiles. */
export function percentileInterval(
  estimate: number,
  replicates: number[],
  confidence = 0.95,
): BootstrapInterval {
  replicates.sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return {
    estimate,
    low: quantileSorted(replicates, tail),
    high: quantileSorted(replicates, 1 - tail),
    replicates: replicates.length,
  };
}

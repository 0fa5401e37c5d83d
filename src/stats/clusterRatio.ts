/**
 * A pooled per-move rate (Brier score, share of moves into a known wall) computed over clusters
 * of moves (games), with a cluster bootstrap: whole games are resampled, because the moves of
 * one game share a maze and a history. A cluster is `{ sum, count }`: the sum of the per-move
 * values and the number of moves; the rate is Σ sum / Σ count (a ratio estimator, so games with
 * more moves weigh more, exactly as when all moves are pooled).
 *
 * The paired version compares two series played on the same seeds: each replicate draws seeds
 * and takes both series' games of each drawn seed, so what the mazes share cancels out.
 * Intervals are bias-corrected percentile intervals (bootstrap.ts), so they contain the
 * estimate.
 */
import { type BootstrapInterval, biasCorrectedPercentileInterval } from './bootstrap.js';
import { createRng } from './prng.js';

export interface RateCluster {
  sum: number;
  count: number;
}

export interface ClusterRatioOptions {
  replicates: number;
  seed: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

function pooled(clusters: readonly RateCluster[]): number | null {
  let sum = 0;
  let count = 0;
  for (const c of clusters) {
    sum += c.sum;
    count += c.count;
  }
  return count > 0 ? sum / count : null;
}

/** The pooled rate with a cluster-bootstrap interval; null without any move. */
export function clusterBootstrapRate(
  clusters: readonly RateCluster[],
  options: ClusterRatioOptions,
  range: { floor?: number; ceiling?: number } = {},
): BootstrapInterval | null {
  const estimate = pooled(clusters);
  if (estimate === null) return null;
  const rng = createRng(options.seed);
  const values: number[] = [];
  const n = clusters.length;
  for (let r = 0; r < options.replicates; r++) {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < n; i++) {
      const c = clusters[rng.int(n)] as RateCluster;
      sum += c.sum;
      count += c.count;
    }
    if (count > 0) values.push(sum / count);
  }
  return biasCorrectedPercentileInterval(estimate, values, options.level ?? 0.95, range);
}

/**
 * rate(a) − rate(b) over seeds both series played; `pairs[i]` holds the two games of one seed.
 * Null when either side has no move.
 */
export function pairedClusterBootstrapRateDifference(
  pairs: readonly (readonly [RateCluster, RateCluster])[],
  options: ClusterRatioOptions,
): BootstrapInterval | null {
  const a = pooled(pairs.map((p) => p[0]));
  const b = pooled(pairs.map((p) => p[1]));
  if (a === null || b === null) return null;
  const rng = createRng(options.seed);
  const values: number[] = [];
  const n = pairs.length;
  for (let r = 0; r < options.replicates; r++) {
    let sumA = 0;
    let countA = 0;
    let sumB = 0;
    let countB = 0;
    for (let i = 0; i < n; i++) {
      const [x, y] = pairs[rng.int(n)] as readonly [RateCluster, RateCluster];
      sumA += x.sum;
      countA += x.count;
      sumB += y.sum;
      countB += y.count;
    }
    if (countA > 0 && countB > 0) values.push(sumA / countA - sumB / countB);
  }
  return biasCorrectedPercentileInterval(a - b, values, options.level ?? 0.95);
}

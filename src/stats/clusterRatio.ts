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
import { type BootstrapInterval, clusterBootstrap } from './bootstrap.js';

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

/** Σ sum / Σ count of the clusters `pick` gives for 0 … n−1; null without any move. */
function pooledOf(n: number, pick: (i: number) => RateCluster): number | null {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < n; i++) {
    const c = pick(i);
    sum += c.sum;
    count += c.count;
  }
  return count > 0 ? sum / count : null;
}

/** The pooled rate of `clusters`: Σ sum / Σ count; null without any move. */
export function pooledRate(clusters: readonly RateCluster[]): number | null {
  return pooledOf(clusters.length, (i) => clusters[i] as RateCluster);
}

/**
 * rate(a) − rate(b) of the pairs `pick` gives for 0 … n−1, each pair `[a, b]`: what a paired
 * bootstrap replicate and a paired permutation both compute. Null when a side has no move.
 */
export function pooledDifference(
  n: number,
  pick: (i: number) => readonly [RateCluster, RateCluster],
): number | null {
  let sumA = 0;
  let countA = 0;
  let sumB = 0;
  let countB = 0;
  for (let i = 0; i < n; i++) {
    const [x, y] = pick(i);
    sumA += x.sum;
    countA += x.count;
    sumB += y.sum;
    countB += y.count;
  }
  return countA > 0 && countB > 0 ? sumA / countA - sumB / countB : null;
}

/** The pooled rate with a cluster-bootstrap interval; null without any move. */
export function clusterBootstrapRate(
  clusters: readonly RateCluster[],
  options: ClusterRatioOptions,
  range: { floor?: number; ceiling?: number } = {},
): BootstrapInterval | null {
  const estimate = pooledRate(clusters);
  if (estimate === null) return null;
  const n = clusters.length;
  return clusterBootstrap(
    estimate,
    n,
    (draw) => pooledOf(n, () => clusters[draw()] as RateCluster),
    options,
    range,
  );
}

/**
 * rate(a) − rate(b) over seeds both series played; `pairs[i]` holds the two games of one seed.
 * Null when either side has no move.
 */
export function pairedClusterBootstrapRateDifference(
  pairs: readonly (readonly [RateCluster, RateCluster])[],
  options: ClusterRatioOptions,
): BootstrapInterval | null {
  const a = pooledRate(pairs.map((p) => p[0]));
  const b = pooledRate(pairs.map((p) => p[1]));
  if (a === null || b === null) return null;
  const n = pairs.length;
  return clusterBootstrap(
    a - b,
    n,
    (draw) => pooledDifference(n, () => pairs[draw()] as readonly [RateCluster, RateCluster]),
    options,
  );
}

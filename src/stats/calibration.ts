/**
 * Calibration of stated probabilities against binary outcomes: Brier score, its Murphy
 * decomposition, expected calibration error (ECE), confidence levels, and cluster bootstrap
 * intervals for the ECE. Pure functions; randomness only through a seeded generator.
 *
 * A forecast is a stated probability p ∈ [0, 1] that the event happens and whether it did
 * (o = 1 or 0). With N forecasts:
 *
 *   Brier = (1/N) Σ (p − o)²
 *
 * Murphy decomposition (A. H. Murphy, "A new vector partition of the probability score",
 * Journal of Applied Meteorology 12, 1973) over K bins of the stated probability, with the two
 * within-bin terms of Stephenson, Coelho & Jolliffe ("Two extra components in the Brier score
 * decomposition", Weather and Forecasting 23, 2008) so that the parts add up exactly:
 *
 *   REL = (1/N) Σ_k n_k (p̄_k − ō_k)²               reliability (0 is best)
 *   RES = (1/N) Σ_k n_k (ō_k − ō)²                 resolution (higher is better)
 *   UNC = ō (1 − ō)                                uncertainty of the outcomes
 *   WBV = (1/N) Σ_k Σ_{i∈k} (p_i − p̄_k)²           within-bin variance of the forecasts
 *   WBC = (2/N) Σ_k Σ_{i∈k} (p_i − p̄_k)(o_i − ō_k)  within-bin covariance
 *
 *   Brier = REL − RES + UNC + WBV − WBC
 *
 * where p̄_k and ō_k are the mean forecast and the observed frequency in bin k, ō overall.
 *
 * ECE = Σ_k (n_k / N) |p̄_k − ō_k| over 10 equal-width bins.
 */
import { mean } from 'simple-statistics';
import { type BootstrapInterval, clusterBootstrap } from './bootstrap.js';

export interface Forecast {
  /** Stated probability, in [0, 1]. */
  confidence: number;
  /** Whether the event happened. */
  success: boolean;
}

/**
 * Which side of an edge a probability exactly on it falls:
 * - `lower-inclusive` (the default here): bin k is [k/K, (k+1)/K), the last bin [1 − 1/K, 1];
 *   0.8 lands in [0.8, 0.9).
 * - `upper-inclusive`: bin k is (k/K, (k+1)/K], the first bin [0, 1/K]; 0.8 lands in
 *   (0.7, 0.8].
 * Stated confidences cluster on round values (0.5, 0.8, 0.9), so the convention matters and is
 * reported with every ECE.
 */
export type BinEdges = 'lower-inclusive' | 'upper-inclusive';

export const DEFAULT_BINS = 10;
export const DEFAULT_EDGES: BinEdges = 'lower-inclusive';

/** A probability within this distance of an edge counts as on it (0.7 × 10 is not exactly 7). */
const EDGE_TOLERANCE = 1e-9;

export function binIndex(
  confidence: number,
  bins: number = DEFAULT_BINS,
  edges: BinEdges = DEFAULT_EDGES,
): number {
  if (!(confidence >= 0 && confidence <= 1)) {
    throw new RangeError(`a stated probability must be in [0, 1], got ${confidence}`);
  }
  const scaled = confidence * bins;
  const index =
    edges === 'lower-inclusive'
      ? Math.floor(scaled + EDGE_TOLERANCE)
      : Math.ceil(scaled - EDGE_TOLERANCE) - 1;
  return Math.min(bins - 1, Math.max(0, index));
}

function requireForecasts(forecasts: readonly Forecast[]): void {
  if (forecasts.length === 0) throw new RangeError('calibration needs at least one forecast');
}

const outcome = (f: Forecast): number => (f.success ? 1 : 0);

export function brierScore(forecasts: readonly Forecast[]): number {
  requireForecasts(forecasts);
  return mean(forecasts.map((f) => (f.confidence - outcome(f)) ** 2));
}

export interface Bin {
  index: number;
  /** Edges of the bin, [low, high] (which end is open depends on the convention). */
  low: number;
  high: number;
  count: number;
  successes: number;
  /** Null when the bin is empty. */
  meanConfidence: number | null;
  successShare: number | null;
}

export function binForecasts(
  forecasts: readonly Forecast[],
  bins: number = DEFAULT_BINS,
  edges: BinEdges = DEFAULT_EDGES,
): Bin[] {
  const tally = tallyBins(forecasts, bins, edges);
  return tally.count.map((count, index) => ({
    index,
    low: index / bins,
    high: (index + 1) / bins,
    count,
    successes: tally.successes[index] as number,
    meanConfidence: count > 0 ? (tally.confidence[index] as number) / count : null,
    successShare: count > 0 ? (tally.successes[index] as number) / count : null,
  }));
}

export interface MurphyDecomposition {
  brier: number;
  reliability: number;
  resolution: number;
  uncertainty: number;
  withinBinVariance: number;
  withinBinCovariance: number;
}

export function murphyDecomposition(
  forecasts: readonly Forecast[],
  bins: number = DEFAULT_BINS,
  edges: BinEdges = DEFAULT_EDGES,
): MurphyDecomposition {
  requireForecasts(forecasts);
  const n = forecasts.length;
  const binned = binForecasts(forecasts, bins, edges);
  const overall = forecasts.filter((f) => f.success).length / n;
  let reliability = 0;
  let resolution = 0;
  for (const bin of binned) {
    if (bin.count === 0) continue;
    const mean = bin.meanConfidence as number;
    const share = bin.successShare as number;
    reliability += bin.count * (mean - share) ** 2;
    resolution += bin.count * (share - overall) ** 2;
  }
  let withinVariance = 0;
  let withinCovariance = 0;
  for (const f of forecasts) {
    const bin = binned[binIndex(f.confidence, bins, edges)] as Bin;
    const spread = f.confidence - (bin.meanConfidence as number);
    withinVariance += spread ** 2;
    withinCovariance += 2 * spread * (outcome(f) - (bin.successShare as number));
  }
  return {
    brier: brierScore(forecasts),
    reliability: reliability / n,
    resolution: resolution / n,
    uncertainty: overall * (1 - overall),
    withinBinVariance: withinVariance / n,
    withinBinCovariance: withinCovariance / n,
  };
}

export function expectedCalibrationError(
  forecasts: readonly Forecast[],
  bins: number = DEFAULT_BINS,
  edges: BinEdges = DEFAULT_EDGES,
): number {
  requireForecasts(forecasts);
  const ece = eceFromTally(tallyBins(forecasts, bins, edges));
  return ece as number;
}

export interface ConfidenceLevel {
  confidence: number;
  count: number;
  successes: number;
}

/** Distinct stated values, most used first (ties: lower value first). */
export function confidenceLevels(forecasts: readonly Forecast[]): ConfidenceLevel[] {
  const levels = new Map<number, ConfidenceLevel>();
  for (const f of forecasts) {
    const level = levels.get(f.confidence) ?? { confidence: f.confidence, count: 0, successes: 0 };
    level.count++;
    if (f.success) level.successes++;
    levels.set(f.confidence, level);
  }
  return [...levels.values()].sort((a, b) => b.count - a.count || a.confidence - b.confidence);
}

/**
 * Per-bin sums: enough to compute the ECE of any union of groups (games) without going back
 * to the forecasts, which keeps a 1000-replicate bootstrap cheap.
 */
export interface BinTally {
  count: number[];
  /** Sum of stated probabilities per bin. */
  confidence: number[];
  successes: number[];
}

export function tallyBins(
  forecasts: readonly Forecast[],
  bins: number = DEFAULT_BINS,
  edges: BinEdges = DEFAULT_EDGES,
): BinTally {
  const tally = emptyTally(bins);
  for (const f of forecasts) {
    const k = binIndex(f.confidence, bins, edges);
    tally.count[k] = (tally.count[k] as number) + 1;
    tally.confidence[k] = (tally.confidence[k] as number) + f.confidence;
    if (f.success) tally.successes[k] = (tally.successes[k] as number) + 1;
  }
  return tally;
}

export function emptyTally(bins: number = DEFAULT_BINS): BinTally {
  return {
    count: new Array(bins).fill(0),
    confidence: new Array(bins).fill(0),
    successes: new Array(bins).fill(0),
  };
}

/** Adds `from` into `into`. */
export function addTally(into: BinTally, from: BinTally): void {
  for (let k = 0; k < into.count.length; k++) {
    into.count[k] = (into.count[k] as number) + (from.count[k] as number);
    into.confidence[k] = (into.confidence[k] as number) + (from.confidence[k] as number);
    into.successes[k] = (into.successes[k] as number) + (from.successes[k] as number);
  }
}

/** ECE = (1/N) Σ_k |Σ p − Σ o| over the bins; null when the tally holds no forecast. */
export function eceFromTally(tally: BinTally): number | null {
  let total = 0;
  let gap = 0;
  for (let k = 0; k < tally.count.length; k++) {
    total += tally.count[k] as number;
    gap += Math.abs((tally.confidence[k] as number) - (tally.successes[k] as number));
  }
  return total > 0 ? gap / total : null;
}

export interface BootstrapOptions {
  replicates: number;
  seed: number;
  /** Coverage of the interval (default 0.95). */
  level?: number;
}

/** `replicates` counts the replicates that had at least one forecast (the others give no ECE). */
export type { BootstrapInterval };

/**
 * Interval of the ECE by resampling whole clusters (games) with replacement: the moves of one
 * game share a maze and a history, so resampling moves would understate the spread. Each
 * replicate draws as many clusters as there are, by `int(clusters)` in order. The interval is
 * the bias-corrected percentile interval (bootstrap.ts): the ECE's replicates sit above the
 * estimate by construction, and the plain percentile interval could exclude it.
 */
export function clusterBootstrapEce(
  clusters: readonly BinTally[],
  options: BootstrapOptions,
): BootstrapInterval | null {
  const whole = sumTallies(clusters);
  const estimate = whole ? eceFromTally(whole) : null;
  if (estimate === null || !whole) return null;
  return clusterBootstrap(
    estimate,
    clusters.length,
    (draw) => {
      const replicate = emptyTally(whole.count.length);
      for (let i = 0; i < clusters.length; i++) addTally(replicate, clusters[draw()] as BinTally);
      return eceFromTally(replicate);
    },
    options,
    { floor: 0, ceiling: 1 },
  );
}

/**
 * ECE(a) − ECE(b) for two players on the same seeds: each replicate draws seeds and takes both
 * players' games of each drawn seed, so the maze-to-maze variation both share cancels out.
 * Bias-corrected percentile interval, as for one ECE: each side's resampling bias differs when
 * one player is calibrated and the other is not.
 * `pairs[i]` holds the two games of one seed.
 */
export function pairedClusterBootstrapEceDifference(
  pairs: readonly (readonly [BinTally, BinTally])[],
  options: BootstrapOptions,
): BootstrapInterval | null {
  const a = sumTallies(pairs.map((p) => p[0]));
  const b = sumTallies(pairs.map((p) => p[1]));
  const eceA = a ? eceFromTally(a) : null;
  const eceB = b ? eceFromTally(b) : null;
  if (!a || eceA === null || eceB === null) return null;
  return clusterBootstrap(
    eceA - eceB,
    pairs.length,
    (draw) => {
      const left = emptyTally(a.count.length);
      const right = emptyTally(a.count.length);
      for (let i = 0; i < pairs.length; i++) {
        const pair = pairs[draw()] as readonly [BinTally, BinTally];
        addTally(left, pair[0]);
        addTally(right, pair[1]);
      }
      const l = eceFromTally(left);
      const r = eceFromTally(right);
      return l !== null && r !== null ? l - r : null;
    },
    options,
    { floor: -1, ceiling: 1 },
  );
}

function sumTallies(tallies: readonly BinTally[]): BinTally | null {
  const first = tallies[0];
  if (!first) return null;
  const sum = emptyTally(first.count.length);
  for (const t of tallies) addTally(sum, t);
  return sum;
}

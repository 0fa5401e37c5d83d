/**
 * The drift rule of a nightly history: does the ECE of the last N nights trend upward beyond
 * a limit? Pure: nights in, analysis out; the simulations use the seeded PRNG.
 *
 * Test. Night i of the window (x = 0 … n−1) has an ECE estimate y_i whose noise σ_i is read
 * from its 95% bootstrap interval, σ_i = (high − low) / (2 · 1.96). The slope b of the
 * weighted least-squares line (weights 1/σ_i²) has standard error 1/√Σw(x − x̄_w)², so
 * z = b / se(b) is standard normal when nothing changes. The rule fails when both
 *   z > z_{1−α}            (the rise is not night-to-night noise), and
 *   b · (n − 1) > limit    (the rise across the window is large enough to matter).
 *
 * Its false-alarm rate is measured, not assumed: `replicates` windows with these nights' σ_i
 * and no change are simulated and the share the rule fails is reported, with the smallest
 * rise across the window that the rule detects four times out of five (same simulation, a
 * linear trend added). Bootstrap intervals cover the sampling of mazes as well as the
 * nightly jitter, so a deterministic model varies less than assumed here: the stated
 * false-alarm rate is then an upper bound.
 */
import { normalQuantile } from '../../stats/normal.js';
import { createRng, type Rng } from '../../stats/prng.js';
import { DRIFT_DEFAULTS, type DriftSettings } from '../../config/history.js';
import type { Estimate } from './section.js';

/** The noise floor: a zero-width interval must not make any wiggle significant. */
export const MIN_NIGHT_SD = 0.002;
/** Detection probability that defines "the smallest rise detected". */
export const DETECTION_POWER = 0.8;

export interface DriftAnalysis {
  /** Nights with an ECE in the history (tonight included). */
  available: number;
  /** Nights the test used (the last `nights`), 0 when there are too few. */
  window: number;
  /** Minimum nights for the test: the configured window. */
  required: number;
  slope: number | null;
  slopeSe: number | null;
  z: number | null;
  /** slope × (window − 1): the fitted rise across the window. */
  rise: number | null;
  maxRise: number;
  alpha: number;
  zCritical: number;
  fired: boolean;
  /** Share of simulated no-change windows the rule fails (these nights' noise). */
  falseAlarmRate: number | null;
  /** Smallest rise across the window detected with DETECTION_POWER; null when above 1. */
  smallestDetectedRise: number | null;
  replicates: number;
}

/** Weighted least-squares slope of y on x = 0 … n−1, with its standard error. */
export function weightedSlope(values: readonly number[], sds: readonly number[]) {
  const n = values.length;
  if (n < 2 || sds.length !== n) throw new RangeError('a slope needs two nights or more');
  let sw = 0;
  let swx = 0;
  let swy = 0;
  for (let i = 0; i < n; i++) {
    const w = 1 / (sds[i] as number) ** 2;
    sw += w;
    swx += w * i;
    swy += w * (values[i] as number);
  }
  const mx = swx / sw;
  const my = swy / sw;
  let sxx = 0;
  let sxy = 0;
  for (let i = 0; i < n; i++) {
    const w = 1 / (sds[i] as number) ** 2;
    sxx += w * (i - mx) ** 2;
    sxy += w * (i - mx) * ((values[i] as number) - my);
  }
  return { slope: sxy / sxx, se: Math.sqrt(1 / sxx) };
}

/** σ of one night's estimate, from its 95% interval, floored at MIN_NIGHT_SD. */
export function nightSd(night: Estimate): number {
  const width = night.high - night.low;
  const sd = Number.isFinite(width) ? width / (2 * normalQuantile(0.975)) : 0;
  return Math.max(sd, MIN_NIGHT_SD);
}

/** The rule on one window: significant upward slope and a rise above the limit. */
export function driftFires(
  values: readonly number[],
  sds: readonly number[],
  s: DriftSettings,
): boolean {
  const fit = weightedSlope(values, sds);
  const zCritical = normalQuantile(1 - s.alpha);
  return fit.slope / fit.se > zCritical && fit.slope * (values.length - 1) > s.maxRise;
}

function gaussian(rng: Rng): number {
  // Box–Muller; 1 − u keeps the logarithm finite.
  const u = 1 - rng.next();
  const v = rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/**
 * Share of simulated windows the rule fails when the true ECE rises linearly by `rise`
 * across the window. The same seed gives the same draws for every `rise` (common random
 * numbers), so the share grows with the rise and a bisection on it is stable.
 */
export function detectionRate(sds: readonly number[], rise: number, s: DriftSettings): number {
  const rng = createRng(s.seed);
  const n = sds.length;
  const values = new Array<number>(n);
  let hits = 0;
  for (let r = 0; r < s.replicates; r++) {
    for (let i = 0; i < n; i++) {
      values[i] = (rise * i) / (n - 1) + (sds[i] as number) * gaussian(rng);
    }
    if (driftFires(values, sds, s)) hits++;
  }
  return hits / s.replicates;
}

/** Smallest rise across the window detected with DETECTION_POWER (bisection to 0.001). */
export function smallestDetectedRise(sds: readonly number[], s: DriftSettings): number | null {
  if (detectionRate(sds, 1, s) < DETECTION_POWER) return null;
  let low = 0;
  let high = 1;
  while (high - low > 0.001) {
    const mid = (low + high) / 2;
    if (detectionRate(sds, mid, s) >= DETECTION_POWER) high = mid;
    else low = mid;
  }
  return high;
}

/** The drift rule on the ECE of the nights (oldest first; null where a night has none). */
export function analyseDrift(
  nights: readonly (Estimate | null)[],
  settings: DriftSettings = DRIFT_DEFAULTS,
): DriftAnalysis {
  const measured = nights.filter((n): n is Estimate => n !== null);
  const zCritical = normalQuantile(1 - settings.alpha);
  const base: DriftAnalysis = {
    available: measured.length,
    window: 0,
    required: settings.nights,
    slope: null,
    slopeSe: null,
    z: null,
    rise: null,
    maxRise: settings.maxRise,
    alpha: settings.alpha,
    zCritical,
    fired: false,
    falseAlarmRate: null,
    smallestDetectedRise: null,
    replicates: settings.replicates,
  };
  if (measured.length < settings.nights) return base;
  const window = measured.slice(-settings.nights);
  const values = window.map((n) => n.value);
  const sds = window.map(nightSd);
  const fit = weightedSlope(values, sds);
  return {
    ...base,
    window: window.length,
    slope: fit.slope,
    slopeSe: fit.se,
    z: fit.slope / fit.se,
    rise: fit.slope * (window.length - 1),
    fired: driftFires(values, sds, settings),
    falseAlarmRate: detectionRate(sds, 0, settings),
    smallestDetectedRise: smallestDetectedRise(sds, settings),
  };
}

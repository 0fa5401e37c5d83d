/**
 * Candidate ÷ baseline, paired over items. Per item the median of its samples on each model
 * (robust to a slow request), the log of their ratio, then the median of those logs over the
 * items with distribution-free one-sided bounds (src/stats/medianBounds.ts).
 *
 * The runner measures one model after the other (model-major series), so a server that warms
 * up or throttles during the run makes the later model look slower or faster. The log's order
 * stands for time: within each model's requests the log time per token is regressed on the
 * position in the run (one slope common to both models, each its own level), every sample is
 * brought back to the run's start, and the bounds are widened by the slope's uncertainty
 * times how far apart the two models' items ran. The false-alarm level is split in halves:
 * one for the ranks, one for the slope. When the two models' requests interleave, the
 * separation is near zero and so is the correction.
 */
import { medianBounds } from '../../stats/medianBounds.js';
import { normalQuantile } from '../../stats/normal.js';
import { median } from '../../stats/quantile.js';
import type { DriftCorrection, PairedRatio } from './section.js';

/** One sample: the log of its figure and its position as a share of the run's requests. */
export interface Timed {
  y: number;
  t: number;
}

interface Trend {
  slope: number;
  se: number;
}

/** Items per model below which no trend is fitted. */
const MIN_TREND_ITEMS = 3;

/**
 * The pooled within-model slope of the log value on the position, over every sample: one
 * level per model, one slope for both (each model's requests centred on their own means).
 */
export function fitTrend(models: readonly Map<string, Timed[]>[]): Trend | null {
  let sxx = 0;
  let sxy = 0;
  let points = 0;
  const centred: Timed[] = [];
  for (const items of models) {
    if (items.size < MIN_TREND_ITEMS) return null;
    const samples = [...items.values()].flat();
    const tBar = samples.reduce((sum, p) => sum + p.t, 0) / samples.length;
    const yBar = samples.reduce((sum, p) => sum + p.y, 0) / samples.length;
    for (const p of samples) {
      centred.push({ t: p.t - tBar, y: p.y - yBar });
      sxx += (p.t - tBar) ** 2;
      sxy += (p.t - tBar) * (p.y - yBar);
    }
    points += samples.length;
  }
  const df = points - models.length - 1;
  if (df < 1 || !(sxx > 1e-12)) return null;
  const slope = sxy / sxx;
  const rss = centred.reduce((sum, p) => sum + (p.y - slope * p.t) ** 2, 0);
  return { slope, se: Math.sqrt(rss / df / sxx) };
}

function bounded(logs: readonly number[], alpha: number, widen: number): PairedRatio | null {
  if (logs.length === 0) return null;
  const b = medianBounds(logs, alpha);
  return {
    items: logs.length,
    ratio: Math.exp(b.median),
    low: b.low === null ? null : Math.exp(b.low - widen),
    high: b.high === null ? null : Math.exp(b.high + widen),
    alpha,
  };
}

/** Time per token, candidate ÷ baseline, with the drift of the run taken out. */
export function compareFigure(
  baseline: Map<string, Timed[]>,
  candidate: Map<string, Timed[]>,
  alpha: number,
): { ratio: PairedRatio | null; drift: DriftCorrection } {
  const trend = fitTrend([baseline, candidate]);
  const slope = trend?.slope ?? 0;
  const corrected = (samples: readonly Timed[]) => median(samples.map((s) => s.y - slope * s.t));
  const meanT = (samples: readonly Timed[]) =>
    samples.reduce((sum, s) => sum + s.t, 0) / samples.length;
  const logs: number[] = [];
  let separation = 0;
  for (const [item, base] of baseline) {
    const cand = candidate.get(item);
    if (!cand) continue;
    logs.push(corrected(cand) - corrected(base));
    separation += meanT(cand) - meanT(base);
  }
  separation = logs.length > 0 ? separation / logs.length : 0;
  const drift: DriftCorrection = {
    method: trend ? 'trend' : 'none',
    slope: trend?.slope ?? null,
    slopeSe: trend?.se ?? null,
    separation,
  };
  if (!trend) return { ratio: bounded(logs, alpha, 0), drift };
  const widen = normalQuantile(1 - alpha / 2) * trend.se * Math.abs(separation);
  // The ranks' bound keeps half the level; the slope's error takes the other half.
  const ratio = bounded(logs, alpha / 2, widen);
  return { ratio: ratio && { ...ratio, alpha }, drift };
}

/** Output tokens per answer, candidate ÷ baseline (answers of no token are left out). */
export function compareTokens(
  baseline: Map<string, number[]>,
  candidate: Map<string, number[]>,
  alpha: number,
): PairedRatio | null {
  const logs: number[] = [];
  for (const [item, base] of baseline) {
    const cand = candidate.get(item);
    if (!cand) continue;
    const b = median(base);
    const c = median(cand);
    if (b > 0 && c > 0) logs.push(Math.log(c / b));
  }
  return bounded(logs, alpha, 0);
}

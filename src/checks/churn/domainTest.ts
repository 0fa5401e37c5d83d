/**
 * Did a domain lose (or gain) accuracy? A net test on the paired counts of its items.
 *
 * For each item the baseline has x1 correct of n1 valid samples and the candidate x2 of n2.
 * With no change, both models' samples of an item are exchangeable draws of one Bernoulli
 * variable; the domain statistic Σ x2 (with equal n, Σ (x2 − x1)/2 + const: the net change,
 * not a count of moved items) is then compared with its exact permutation null, which swaps
 * baseline and candidate labels within each item (src/stats/stratifiedExact.ts). That null
 * carries the sampling noise of both models, item by item, at any K and any difficulty: an item
 * answered 0/10 or 10/10 by both models has one possible table and adds no evidence, so settled
 * items never make the test more certain than it is. Items moving both ways cancel: 10 items
 * at +0.5 and 10 at −0.5 give no net change.
 *
 * Domains are tested one-sided for a loss and, separately, for a gain; Holm's procedure over
 * the tested domains keeps the chance of naming any domain with no change at or below the
 * rule's share of the budget.
 */
import { holmAdjust } from '../../stats/holm.js';
import { normalQuantile } from '../../stats/normal.js';
import { type Stratum, stratifiedExactTest } from '../../stats/stratifiedExact.js';

/** Power the smallest detectable changes are stated at. */
export const DETECTION_POWER = 0.8;

export interface DomainTestRow {
  domain: string;
  /** Items in the test (valid samples from both models). */
  items: number;
  /** Items whose samples could vary under the null (not 0/N or N/N correct in total). */
  informative: number;
  /** One-sided exact p-values of a net loss and of a net gain. */
  pLoss: number;
  pGain: number;
  /** Holm-adjusted over the tested domains. */
  adjustedLoss: number;
  adjustedGain: number;
  loss: boolean;
  gain: boolean;
  /** Net loss, in accuracy (0–1), detected with 80% power at this domain's size and K. */
  detectable: number | null;
}

export interface OverallTest {
  pLoss: number;
  pGain: number;
  /** Significant at two-sided 5%: "up", "down", or null when the interval holds no change. */
  direction: 'up' | 'down' | null;
}

export interface DomainCounts {
  domain: string;
  /** The strata of the test: one per item, or one per item and stage (adaptive sampling). */
  strata: Stratum[];
  /** One pooled stratum per item, when `strata` holds several per item: counts and power. */
  items?: Stratum[];
  /** With several strata per item: items with at least one stratum that can vary. */
  informativeItems?: number;
}

/** Shrunk per-sample variance p̃(1 − p̃), p̃ = (x + 1)/(n + 2): a settled item may still move. */
function sampleVariance(s: Stratum): number {
  const p = (s.x1 + s.x2 + 1) / (s.n1 + s.n2 + 2);
  return p * (1 - p);
}

/**
 * Smallest uniform loss δ of a domain's accuracy detected with `power` by a one-sided test at
 * `level`: δ = (z₁₋ₐ + z_power)·√(Σ v_i (1/n1 + 1/n2)) / n (normal approximation of the
 * domain mean of Δp, per-item variances v_i shrunk as above).
 */
export function detectableDomainLoss(
  strata: readonly Stratum[],
  level: number,
  power = DETECTION_POWER,
): number | null {
  if (strata.length === 0) return null;
  let variance = 0;
  for (const s of strata) variance += sampleVariance(s) * (1 / s.n1 + 1 / s.n2);
  const z = normalQuantile(1 - level) + normalQuantile(power);
  return (z * Math.sqrt(variance)) / strata.length;
}

/**
 * K (samples per model and item) needed for a domain of `items` items to show a uniform loss
 * `delta` with 80% power at `level`, with `variance` the mean per-sample variance p(1 − p).
 */
export function samplesForDomainLoss(
  delta: number,
  items: number,
  variance: number,
  level: number,
  power = DETECTION_POWER,
): number {
  const z = normalQuantile(1 - level) + normalQuantile(power);
  return Math.max(2, Math.ceil((2 * variance * z * z) / (items * delta * delta)));
}

/**
 * K needed for a single item to show a change `delta` between two proportions around 0.5 with
 * 80% power at two-sided `level` (normal approximation; the hardest place to see a change).
 */
export function samplesForItemChange(
  delta: number,
  level: number,
  power = DETECTION_POWER,
): number {
  const z = detectionZ(level, power);
  return Math.max(2, Math.ceil((2 * 0.25 * z * z) / (delta * delta)));
}

/** Smallest item change seen with 80% power at K samples (inverse of samplesForItemChange). */
export function detectableItemChange(
  samples: number,
  level: number,
  power = DETECTION_POWER,
): number {
  const z = detectionZ(level, power);
  return z * Math.sqrt((2 * 0.25) / samples);
}

/** z of a two-sided test at `level` plus z of `power`: the distance a detectable change spans. */
function detectionZ(level: number, power: number): number {
  return normalQuantile(1 - level / 2) + normalQuantile(power);
}

export function testDomains(domains: readonly DomainCounts[], level: number): DomainTestRow[] {
  const tested = domains.map((d) => ({ d, result: stratifiedExactTest(d.strata) }));
  const adjustedLoss = holmAdjust(tested.map((t) => t.result.pLower));
  const adjustedGain = holmAdjust(tested.map((t) => t.result.pUpper));
  const perDomainLevel = domains.length === 0 ? level : level / domains.length;
  return tested.map(({ d, result }, i) => ({
    domain: d.domain,
    items: (d.items ?? d.strata).length,
    informative: d.informativeItems ?? result.informative,
    pLoss: result.pLower,
    pGain: result.pUpper,
    adjustedLoss: adjustedLoss[i] as number,
    adjustedGain: adjustedGain[i] as number,
    loss: (adjustedLoss[i] as number) <= level,
    gain: (adjustedGain[i] as number) <= level,
    detectable: detectableDomainLoss(d.items ?? d.strata, perDomainLevel),
  }));
}

/** The overall change, all items pooled: is it itself significant, and which way? */
export function testOverall(strata: readonly Stratum[]): OverallTest {
  const result = stratifiedExactTest(strata);
  const direction = result.pUpper <= 0.025 ? 'up' : result.pLower <= 0.025 ? 'down' : null;
  return { pLoss: result.pLower, pGain: result.pUpper, direction };
}

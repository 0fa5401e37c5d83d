/**
 * Overdispersion of a difference between two shares counted in strata, and a one-sided p-value
 * shrunk by it (the quasi-binomial scale, McCullagh & Nelder 1989, §4.5).
 *
 * Two sides (0 and 1) count hits out of answers in each stratum s. When every answer is an
 * independent draw, the pooled difference of shares x₁/N₁ − x₀/N₀ varies as a binomial one:
 *
 *   V_binomial = π(1 − π)(1/N₀ + 1/N₁),     π = (x₀ + x₁)/(N₀ + N₁), the pooled share.
 *
 * When answers of a stratum move together (attributions that share centroids, or what one side
 * made of one stratum), the strata's own differences d_s = x₁ₛ/n₁ₛ − x₀ₛ/n₀ₛ scatter more. Their
 * mean over the k strata answered on both sides has the variance estimated by
 *
 *   V_strata = Σ (d_s − d̄)² / (k − 1) / k,
 *
 * and the dispersion is φ = max(1, V_strata / V_binomial): 1 when the strata agree as well as
 * independent answers would, larger when they disagree more. A one-sided p-value p (from an
 * exact test on the pooled counts) is shrunk as if the counts were φ times fewer: its normal
 * score is divided by √φ,
 *
 *   p_φ = 1 − Φ(Φ⁻¹(1 − p) / √φ),
 *
 * so p_φ = p when φ = 1 and the evidence of a difference carried by a few strata counts less.
 */
import { mean } from 'simple-statistics';
import { normalQuantile, normalSurvival } from './normal.js';

export interface StratumCounts {
  hits0: number;
  answers0: number;
  hits1: number;
  answers1: number;
}

/** φ ≥ 1 of the strata; 1 with fewer than two strata answered on both sides or a share of 0 or 1. */
export function shareDifferenceDispersion(strata: readonly StratumCounts[]): number {
  const both = strata.filter((s) => s.answers0 > 0 && s.answers1 > 0);
  const k = both.length;
  if (k < 2) return 1;
  let hits0 = 0;
  let answers0 = 0;
  let hits1 = 0;
  let answers1 = 0;
  for (const s of both) {
    hits0 += s.hits0;
    answers0 += s.answers0;
    hits1 += s.hits1;
    answers1 += s.answers1;
  }
  const pooled = (hits0 + hits1) / (answers0 + answers1);
  if (pooled <= 0 || pooled >= 1) return 1;
  const binomial = pooled * (1 - pooled) * (1 / answers0 + 1 / answers1);
  const d = both.map((s) => s.hits1 / s.answers1 - s.hits0 / s.answers0);
  const centre = mean(d);
  const strataVariance = d.reduce((sum, v) => sum + (v - centre) ** 2, 0) / (k - 1) / k;
  return Math.max(1, strataVariance / binomial);
}

/** A one-sided p-value shrunk by a dispersion φ ≥ 1 (p itself when φ = 1). */
export function shrunkOneSidedP(p: number, dispersion: number): number {
  if (!(dispersion > 1) || p >= 1) return p;
  if (p <= 0) return 0;
  // Φ⁻¹(1 − p) = −Φ⁻¹(p): read in the lower tail, accurate for the smallest p.
  return normalSurvival(-normalQuantile(p) / Math.sqrt(dispersion));
}

/**
 * Exact conditional null distribution of T = Σ x2 over a list of 2×2 strata, and its two-sided
 * p-value.
 *
 * Each stratum is x1 successes of n1 trials in group 1 against x2 of n2 in group 2. Under "no
 * difference" the trials of a stratum are exchangeable, so given its total t = x1 + x2 the count
 * x2 is hypergeometric, independently across strata; T's law is the convolution of those laws
 * (the exact stratified test of Mantel–Haenszel / Birch). With one stratum the two-sided p-value
 * below is Fisher's exact test; with the stages of one item as strata it is the test that stays
 * exact when the number of stages was chosen from each stage's pooled total.
 *
 * Two-sided rule: the sum of P(T = s) over every s no more probable than the observed value,
 * with the same 1e-7 relative tolerance as src/stats/fisher.ts.
 */
import { convolution } from './convolution.js';
import { hypergeometric } from './hypergeometric.js';
import type { Stratum } from './stratifiedExact.js';

const RELATIVE_TOLERANCE = 1 + 1e-7;

export interface ConditionalDistribution {
  /** Smallest value T can take given the strata's margins. */
  low: number;
  /** pmf[j] = P(T = low + j). */
  pmf: number[];
}

function checkStratum(s: Stratum): void {
  for (const value of [s.x1, s.n1, s.x2, s.n2]) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`stagedExact needs non-negative integer counts, got ${value}`);
    }
  }
  if (s.x1 > s.n1 || s.x2 > s.n2) {
    throw new RangeError(`stagedExact: successes above trials (${s.x1}/${s.n1}, ${s.x2}/${s.n2})`);
  }
}

/** The law of Σ x2 given every stratum's margins (n1, n2, t). */
export function conditionalDistribution(strata: readonly Stratum[]): ConditionalDistribution {
  let low = 0;
  const laws: number[][] = [];
  for (const s of strata) {
    checkStratum(s);
    const t = s.x1 + s.x2;
    const { low: from, pmf: law } = hypergeometric(s.n1, s.n2, t);
    low += from;
    if (law.length > 1) laws.push(law);
  }
  return { low, pmf: Array.from(convolution(laws)) };
}

/** Two-sided exact p-value of Σ x2 given every stratum's margins. */
export function conditionalExactTwoSided(strata: readonly Stratum[]): number {
  const { low, pmf } = conditionalDistribution(strata);
  if (pmf.length === 1) return 1;
  let observed = 0;
  for (const s of strata) observed += s.x2;
  const at = pmf[observed - low] as number;
  let total = 0;
  for (const p of pmf) if (p <= at * RELATIVE_TOLERANCE) total += p;
  return Math.min(1, total);
}

/**
 * Exact conditional test of "no difference" across strata of 2×2 tables (each stratum: x1
 * successes of n1 trials in group 1, x2 of n2 in group 2).
 *
 * Under the null hypothesis both groups' trials in a stratum are exchangeable draws of the same
 * Bernoulli variable, whatever its probability. Conditioned on the stratum's total successes
 * t = x1 + x2, the successes of group 2 then follow the hypergeometric distribution
 *   P(x2 = k | t) = C(n2, k)·C(n1, t − k) / C(n1 + n2, t),
 * independently across strata, and the statistic T = Σ x2 has the convolution of those laws as
 * its exact null distribution (the permutation null that swaps group labels within each
 * stratum; the exact form of the Cochran–Mantel–Haenszel test, Mantel & Haenszel, JNCI 22,
 * 1959; Birch, JRSS B 26, 1964). The mean and variance given here are the Mantel–Haenszel
 * ones: E = Σ n2·t/N, Var = Σ n1·n2·t·(N − t) / (N²·(N − 1)).
 *
 * A stratum with t = 0 or t = N (every trial failed, or every one succeeded) has a single
 * possible table: it adds nothing to T's spread and nothing to the evidence, so strata at
 * p = 0 or 1 never make the test more certain than it is. The p-values are exact (no normal
 * approximation), valid for any number of trials per stratum.
 */

import { convolution } from './convolution.js';
import { hypergeometric } from './hypergeometric.js';
import { type Tails, tiltedTails } from './tiltedTails.js';

export interface Stratum {
  x1: number;
  n1: number;
  x2: number;
  n2: number;
}

export interface StratifiedExactResult {
  /** Σ x2. */
  statistic: number;
  /** Its null mean Σ n2·t/N. */
  expected: number;
  /** Its null variance. */
  variance: number;
  /** P(T ≤ observed): small when group 2 has fewer successes than the null expects. */
  pLower: number;
  /** P(T ≥ observed): small when group 2 has more. */
  pUpper: number;
  /** Strata whose table could vary (0 < t < N). */
  informative: number;
}

/** Whether a stratum's table could vary given its margins (both groups sampled, 0 < t < N). */
export function canVary(s: Stratum): boolean {
  const t = s.x1 + s.x2;
  return s.n1 > 0 && s.n2 > 0 && t > 0 && t < s.n1 + s.n2;
}

function checkStratum(s: Stratum): void {
  for (const value of [s.x1, s.n1, s.x2, s.n2]) {
    if (!Number.isInteger(value) || value < 0) {
      throw new RangeError(`stratifiedExactTest needs non-negative integer counts, got ${value}`);
    }
  }
  if (s.x1 > s.n1 || s.x2 > s.n2) {
    throw new RangeError(
      `stratifiedExactTest: successes above trials (${s.x1}/${s.n1}, ${s.x2}/${s.n2})`,
    );
  }
}

/**
 * Above this many multiply-adds (Σ over strata of the law so far × the stratum's law) the
 * tails come from tiltedTails.ts (relative error of order 10⁻¹³) instead of the whole law:
 * a pooled test of 50,000 items would otherwise take 10¹⁰ of them.
 */
const EXACT_WORK = 5e7;

export function stratifiedExactTest(strata: readonly Stratum[]): StratifiedExactResult {
  let statistic = 0;
  let expected = 0;
  let variance = 0;
  let offset = 0;
  let span = 1;
  let work = 0;
  const laws: number[][] = [];
  // Strata with the same margins share one law (and its array, which tiltedTails counts).
  const seen = new Map<string, { low: number; pmf: number[] }>();
  for (const s of strata) {
    checkStratum(s);
    const n = s.n1 + s.n2;
    const t = s.x1 + s.x2;
    statistic += s.x2;
    if (n === 0) continue;
    expected += (s.n2 * t) / n;
    if (n > 1) variance += (s.n1 * s.n2 * t * (n - t)) / (n * n * (n - 1));
    const margins = `${s.n1},${s.n2},${t}`;
    let law = seen.get(margins);
    if (!law) {
      law = hypergeometric(s.n1, s.n2, t);
      seen.set(margins, law);
    }
    offset += law.low;
    // Strata with one possible table only shift T.
    if (law.pmf.length === 1) continue;
    laws.push(law.pmf);
    work += span * law.pmf.length;
    span += law.pmf.length - 1;
  }
  const at = statistic - offset;
  const { lower, upper } = work > EXACT_WORK ? tiltedTails(laws, at) : exactTails(laws, at);
  return {
    statistic,
    expected,
    variance,
    pLower: Math.min(1, lower),
    pUpper: Math.min(1, upper),
    informative: laws.length,
  };
}

/** Both tails summed over the whole law of T. */
export function exactTails(laws: readonly (readonly number[])[], at: number): Tails {
  const dist = convolution(laws);
  let lower = 0;
  let upper = 0;
  for (let j = 0; j < dist.length; j++) {
    const p = dist[j] as number;
    if (j <= at) lower += p;
    if (j >= at) upper += p;
  }
  return { lower, upper };
}

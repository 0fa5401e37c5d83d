/**
 * Paired permutation (sign-flip) test: n units each measured under two conditions, a and b.
 * Under the null hypothesis that the two conditions are exchangeable within each unit (two
 * identical players on the same seed), swapping a and b inside any subset of units leaves the
 * joint distribution unchanged, so the statistic's value under each of the 2^n swap patterns is
 * equally likely. The one-sided p-value is the share of patterns whose statistic is at least
 * the observed one (the identity included), which makes P(p ≤ α) ≤ α exactly, whatever n and
 * whatever the statistic (Fisher 1935, The Design of Experiments, §21; Good 2005, Permutation,
 * Parametric and Bootstrap Tests of Hypotheses, ch. 3).
 *
 * Up to `exactUpTo` units every pattern is enumerated; above, patterns are drawn at random
 * (seeded) and p = (1 + #{T* ≥ T}) / (1 + draws), still a valid p-value (Phipson & Smyth 2010).
 */
import { createRng } from './prng.js';

export interface PairedPermutationOptions {
  /** Draws when the patterns are not enumerated. */
  draws: number;
  seed: number;
  /** Enumerate all 2^n patterns up to this many units (default 12: 4,096 patterns). */
  exactUpTo?: number;
}

export interface PairedPermutationResult {
  observed: number;
  /** One-sided: large values of the statistic are evidence against the null. */
  pValue: number;
  patterns: number;
  exact: boolean;
}

/** Values within this distance of the observed one count as ties (at least as extreme). */
const TIE = 1e-12;

/**
 * `statistic(swapped)`: the statistic with unit i's a and b exchanged where swapped[i] is true.
 */
export function pairedPermutationTest(
  units: number,
  statistic: (swapped: readonly boolean[]) => number,
  options: PairedPermutationOptions,
): PairedPermutationResult {
  const swapped = new Array<boolean>(units).fill(false);
  const observed = statistic(swapped);
  const exactUpTo = options.exactUpTo ?? 12;
  let atLeast = 0;
  if (units <= exactUpTo) {
    const patterns = 2 ** units;
    for (let mask = 0; mask < patterns; mask++) {
      for (let i = 0; i < units; i++) swapped[i] = ((mask >>> i) & 1) === 1;
      if (statistic(swapped) >= observed - TIE) atLeast++;
    }
    return { observed, pValue: atLeast / patterns, patterns, exact: true };
  }
  const rng = createRng(options.seed);
  for (let d = 0; d < options.draws; d++) {
    for (let i = 0; i < units; i++) swapped[i] = rng.next() < 0.5;
    if (statistic(swapped) >= observed - TIE) atLeast++;
  }
  return {
    observed,
    pValue: (1 + atLeast) / (1 + options.draws),
    patterns: options.draws,
    exact: false,
  };
}

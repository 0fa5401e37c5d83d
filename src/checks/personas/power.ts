/**
 * Power of the two personas tests at a run's settings, computed exactly under a binomial
 * model of the counts (each answer recognised, or crossing, independently with a fixed
 * probability): for every baseline count, the candidate counts that fail the rule, weighted
 * by their binomial probabilities. The operating-characteristics harness checks these
 * figures against answers generated from a known truth and pushed through the analysis.
 */
import { binomialPmf } from '../../stats/binomial.js';
import { fisherExactGreater } from '../../stats/fisher.js';

/** Power the smallest detected effect is stated at. */
export const TARGET_POWER = 0.8;

function pmfs(n: number, p: number): number[] {
  return Array.from({ length: n + 1 }, (_, k) => binomialPmf(k, n, p));
}

/**
 * Merge rule: for each baseline crossing count c₀ of n₀, the smallest candidate count c₁ of
 * n₁ that fails (p ≤ α and a rise ≥ minRise); n₁ + 1 when none does.
 */
export function mergeCriticalCounts(
  n0: number,
  n1: number,
  alpha: number,
  minRise: number,
): number[] {
  return Array.from({ length: n0 + 1 }, (_, c0) => {
    for (let c1 = 0; c1 <= n1; c1++) {
      if (c1 / n1 - c0 / n0 < minRise - 1e-12) continue;
      if (fisherExactGreater(c1, n1 - c1, c0, n0 - c0) <= alpha) return c1;
    }
    return n1 + 1;
  });
}

/**
 * P(the rule fails the candidate) when the baseline count follows Bin(n₀, p₀) and the
 * candidate's Bin(n₁, p₁): the candidate fails at or above `critical[c₀]` (merge rule, where
 * n₁ + 1 is never) or at or below it (recognition rule, where −1 is never).
 */
function rulePower(
  critical: readonly number[],
  n0: number,
  n1: number,
  p0: number,
  p1: number,
  fails: 'at-or-above' | 'at-or-below',
): number {
  const before = pmfs(n0, p0);
  const after = pmfs(n1, p1);
  const tail: number[] = new Array(n1 + 2).fill(0);
  if (fails === 'at-or-above') {
    for (let k = n1; k >= 0; k--) tail[k] = (tail[k + 1] ?? 0) + (after[k] ?? 0);
  } else {
    let running = 0;
    for (let k = 0; k <= n1; k++) {
      running += after[k] ?? 0;
      tail[k] = running;
    }
  }
  const never = fails === 'at-or-above' ? n1 + 1 : -1;
  return before.reduce((sum, w, c0) => {
    const c = critical[c0] ?? never;
    return sum + (c < 0 ? 0 : w * (tail[c] ?? 0));
  }, 0);
}

/**
 * Smallest crossing share of the candidate that the merge rule catches with TARGET_POWER,
 * for a pair crossing at p0 on the baseline; null when no share up to 1 reaches it.
 */
export function smallestMerge(
  n0: number,
  n1: number,
  p0: number,
  alpha: number,
  minRise: number,
): number | null {
  if (n0 === 0 || n1 === 0) return null;
  const critical = mergeCriticalCounts(n0, n1, alpha, minRise);
  return bisect((p1) => rulePower(critical, n0, n1, p0, p1, 'at-or-above'), p0, 1, true);
}

/**
 * Recognition rule: for each baseline count r₀ of n₀ at or above the level, the largest
 * candidate count r₁ of n₁ that fails (below the level and p ≤ α); −1 when none does.
 */
export function recognitionCriticalCounts(
  n0: number,
  n1: number,
  alpha: number,
  minRecognition: number,
): number[] {
  return Array.from({ length: n0 + 1 }, (_, r0) => {
    if (r0 / n0 < minRecognition) return -1;
    for (let r1 = n1; r1 >= 0; r1--) {
      if (r1 / n1 >= minRecognition) continue;
      if (fisherExactGreater(r0, n0 - r0, r1, n1 - r1) <= alpha) return r1;
    }
    return -1;
  });
}

/**
 * Largest recognition share of the candidate that the rule catches with TARGET_POWER, for an
 * assistant recognised at p0 by the baseline; null when even 0 is not caught that often (the
 * baseline is too often below min-recognition itself).
 */
export function smallestRecognitionDrop(
  n0: number,
  n1: number,
  p0: number,
  alpha: number,
  minRecognition: number,
): number | null {
  if (n0 === 0 || n1 === 0) return null;
  const critical = recognitionCriticalCounts(n0, n1, alpha, minRecognition);
  return bisect((p1) => rulePower(critical, n0, n1, p0, p1, 'at-or-below'), 0, p0, false);
}

/**
 * The point where power crosses TARGET_POWER on [low, high]; power rises with p when
 * `rising`, falls otherwise. Null when the target is not reached at the far end.
 */
function bisect(
  power: (p: number) => number,
  low: number,
  high: number,
  rising: boolean,
): number | null {
  const far = rising ? high : low;
  if (power(far) < TARGET_POWER) return null;
  let near = rising ? low : high;
  let reach = far;
  for (let i = 0; i < 40; i++) {
    const mid = (near + reach) / 2;
    if (power(mid) >= TARGET_POWER) reach = mid;
    else near = mid;
  }
  return reach;
}

/**
 * Exact binomial tail: the probability of at least k successes in n independent trials of
 * probability p. Used to place an accuracy against chance (k correct attributions out of n
 * answers, chance 1/number of assistants).
 *
 *   P(X ≥ k) = Σ_{i=k..n} C(n, i) p^i (1 − p)^(n − i)
 *
 * The sum always starts from the term nearest the mode and walks away from it with the ratio
 * pmf(i + 1) / pmf(i) = (n − i) / (i + 1) · p / (1 − p), so no term underflows before the
 * terms that matter have been added.
 */
import { logChoose } from './logChoose.js';

/** P(X = k) for X ~ Binomial(n, p). */
export function binomialPmf(k: number, n: number, p: number): number {
  assertArguments(k, n, p);
  if (k < 0 || k > n) return 0;
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === n ? 1 : 0;
  return Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}

/** P(X ≥ k) for X ~ Binomial(n, p): the one-sided p-value of k successes against chance p. */
export function binomialUpperTail(k: number, n: number, p: number): number {
  assertArguments(k, n, p);
  if (k <= 0) return 1;
  if (k > n) return 0;
  if (p === 0) return 0;
  if (p === 1) return 1;
  // Above the mean the upper terms shrink as i grows: add them directly. Below it, the
  // complement's terms shrink as i falls, so sum those and subtract.
  if (k > n * p) return sumUpward(k, n, p);
  return Math.max(0, 1 - sumDownward(k - 1, n, p));
}

function sumUpward(from: number, n: number, p: number): number {
  const ratio = p / (1 - p);
  let term = binomialPmf(from, n, p);
  let total = 0;
  for (let i = from; i <= n; i++) {
    total += term;
    term *= ((n - i) / (i + 1)) * ratio;
    if (term < total * Number.EPSILON * 1e-3) break;
  }
  return Math.min(1, total);
}

function sumDownward(from: number, n: number, p: number): number {
  const inverseRatio = (1 - p) / p;
  let term = binomialPmf(from, n, p);
  let total = 0;
  for (let i = from; i >= 0; i--) {
    total += term;
    term *= (i / (n - i + 1)) * inverseRatio;
    if (term < total * Number.EPSILON * 1e-3) break;
  }
  return Math.min(1, total);
}

function assertArguments(k: number, n: number, p: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a whole number ≥ 0, got ${n}`);
  if (!Number.isInteger(k)) throw new RangeError(`k must be a whole number, got ${k}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must lie in [0, 1], got ${p}`);
}

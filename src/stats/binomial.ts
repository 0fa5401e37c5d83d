/**
 * The binomial law: P(X = k) successes in n independent trials of probability p, through
 * log C(n, k) so that large n neither overflows nor loses the small terms.
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

function assertArguments(k: number, n: number, p: number): void {
  if (!Number.isInteger(n) || n < 0) throw new RangeError(`n must be a whole number ≥ 0, got ${n}`);
  if (!Number.isInteger(k)) throw new RangeError(`k must be a whole number, got ${k}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`p must lie in [0, 1], got ${p}`);
}

/**
 * The hypergeometric law behind every exact test of 2×2 tables here (Fisher's, the stratified
 * and the staged ones): group 1 has n1 trials, group 2 has n2, and t successes fall among all
 * n1 + n2. If the groups do not differ, the successes of group 2 follow
 *   P(x2 = k | t) = C(n2, k)·C(n1, t − k) / C(n1 + n2, t),  max(0, t − n1) ≤ k ≤ min(t, n2).
 */
import { logChoose } from './logChoose.js';

/** P(x2 = k | t) for k = low … high. */
export function hypergeometric(n1: number, n2: number, t: number): { low: number; pmf: number[] } {
  const low = Math.max(0, t - n1);
  const high = Math.min(t, n2);
  const total = logChoose(n1 + n2, t);
  const pmf: number[] = [];
  for (let k = low; k <= high; k++) {
    pmf.push(Math.exp(logChoose(n2, k) + logChoose(n1, t - k) - total));
  }
  return { low, pmf };
}

/**
 * Exact conditional test of one item sampled in stages when the item may stop early because its
 * change is already decided (an efficacy stop), with the test's level kept.
 *
 * Given every stage's margins (n1, n2, t), the candidate's successes x2 of each stage are
 * independent hypergeometric variables under "no difference" (src/stats/stagedExact.ts). Let
 * S_j = Σ x2 over stages 1…j. At each look j the outcomes are ordered by the stage-wise ordering
 * of group-sequential designs (Armitage; Fairbanks & Madsen, Biometrics 1982; Jennison &
 * Turnbull 2000, §8.4): stopping at an earlier look is more extreme than stopping later, and at
 * one look a value of S_j is more extreme when its (unrestricted) probability is no larger — the
 * two-sided rule of Fisher's test. The p-value of stopping at look j with S_j = s is
 *
 *   P(stopped at a look before j) + P(not stopped before j, S_j no more probable than s),
 *
 * both under the null given the margins, computed by carrying the law of S_j over the paths not
 * stopped yet. The item stops at look j when that p-value is at or below `bound`; the set of
 * outcomes that stop at or before a look is a lower set of the ordering, so the chance of ever
 * stopping under "no difference" is at most `bound`, and the p-value at the last look is exact
 * too (conservative only through discreteness). Only the stages up to the look are needed: the
 * p-value never depends on stages not taken. With `bound` = 0 nothing stops and the last look's
 * p-value is conditionalExactTwoSided's.
 */
import { hypergeometric } from './hypergeometric.js';
import type { Stratum } from './stratifiedExact.js';

const RELATIVE_TOLERANCE = 1 + 1e-7;

export interface StageWiseOutcome {
  /** The stage-wise p-value at the last stage given, or at the look that stopped. */
  pValue: number;
  /** 0-based look where the p-value reached the bound (the last stage's included), else null. */
  stoppedAt: number | null;
}

function convolveOne(dist: Float64Array, law: readonly number[]): Float64Array {
  const next = new Float64Array(dist.length + law.length - 1);
  for (let a = 0; a < dist.length; a++) {
    const pa = dist[a] as number;
    if (pa === 0) continue;
    for (let b = 0; b < law.length; b++)
      next[a + b] = (next[a + b] as number) + pa * (law[b] as number);
  }
  return next;
}

/** p-value of every value of S at one look, given the law `full` that orders and the mass `alive`. */
function lookPValues(full: Float64Array, alive: Float64Array, spent: number): Float64Array {
  const order = Array.from(full.keys()).sort((a, b) => (full[a] as number) - (full[b] as number));
  const out = new Float64Array(full.length);
  let i = 0;
  let running = spent;
  while (i < order.length) {
    // Values as probable as each other (within the tolerance) share one p-value.
    const level = (full[order[i] as number] as number) * RELATIVE_TOLERANCE;
    let j = i;
    while (j < order.length && (full[order[j] as number] as number) <= level) {
      running += alive[order[j] as number] as number;
      j++;
    }
    for (let k = i; k < j; k++) out[order[k] as number] = Math.min(1, running);
    i = j;
  }
  return out;
}

/**
 * The stage-wise p-value of the stages given, for a design that stops at any look before the
 * last one whose p-value is at or below `bound`. When the bound is reached before the last stage,
 * the later stages are ignored (the design would not have taken them).
 *
 * `stopAt` (one bound per look, each at least `bound`; the last holds after it) stops the item
 * sooner without changing the ordering: p-values are still those of the design with `bound`.
 */
export function stageWiseTwoSided(
  strata: readonly Stratum[],
  bound: number,
  stopAt?: readonly number[],
): StageWiseOutcome {
  if (strata.length === 0) return { pValue: 1, stoppedAt: null };
  let full: Float64Array = new Float64Array([1]);
  let alive: Float64Array = new Float64Array([1]);
  let low = 0;
  let observed = 0;
  let spent = 0;
  for (let j = 0; j < strata.length; j++) {
    const s = strata[j] as Stratum;
    const law = hypergeometric(s.n1, s.n2, s.x1 + s.x2);
    low += law.low;
    observed += s.x2;
    full = convolveOne(full, law.pmf);
    alive = convolveOne(alive, law.pmf);
    const pValues = lookPValues(full, alive, spent);
    const p = full.length === 1 && spent === 0 ? 1 : (pValues[observed - low] as number);
    const last = j === strata.length - 1;
    const stop = Math.max(bound, stopAt?.[Math.min(j, stopAt.length - 1)] ?? bound);
    if (p <= stop && (full.length > 1 || spent > 0)) return { pValue: p, stoppedAt: j };
    if (last) return { pValue: p, stoppedAt: null };
    for (let v = 0; v < alive.length; v++) {
      if ((pValues[v] as number) <= bound && (alive[v] as number) > 0) {
        spent += alive[v] as number;
        alive[v] = 0;
      }
    }
  }
  return { pValue: 1, stoppedAt: null };
}

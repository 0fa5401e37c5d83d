/**
 * Fisher's exact test for a 2×2 table, two-sided.
 *
 *        success   failure
 *   row1    a         b
 *   row2    c         d
 *
 * With the margins fixed, a follows the hypergeometric distribution
 *   P(a) = C(a+b, a)·C(c+d, c) / C(n, a+c).
 * The two-sided p-value sums P over every table no more probable than the one observed
 * (the rule of R's fisher.test), with a relative tolerance of 1e-7 so tables whose
 * probability equals the observed one up to rounding count as "as extreme".
 */

import { hypergeometric } from './hypergeometric.js';

const RELATIVE_TOLERANCE = 1 + 1e-7;

/**
 * The law of the top-left cell of the 2×2 table [[a, b], [c, d]] with its margins fixed: a is
 * the successes of row 1 among the a + c successes of both rows.
 */
function tableLaw(test: string, a: number, b: number, c: number, d: number) {
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) {
      throw new RangeError(`${test} needs non-negative integer counts, got ${cell}`);
    }
  }
  return hypergeometric(c + d, a + b, a + c);
}

export function fisherExactTwoSided(a: number, b: number, c: number, d: number): number {
  const { low, pmf } = tableLaw('fisherExactTwoSided', a, b, c, d);
  if (pmf.length === 1) return 1;
  const observed = pmf[a - low] as number;
  let total = 0;
  for (const p of pmf) if (p <= observed * RELATIVE_TOLERANCE) total += p;
  return Math.min(1, total);
}

/** Counts below this (x ≤ n) are keyed by one number in the memo below. */
const SMALL = 2 ** 13;

/**
 * Fisher's test on two binomial samples: x1 successes of n1 against x2 of n2. Memoised,
 * since the same small tables repeat across thousands of items and null replicates.
 */
export function createFisherCache(): (x1: number, n1: number, x2: number, n2: number) => number {
  const cache = new Map<number | string, number>();
  return (x1, n1, x2, n2) => {
    // Four counts below 2^13 make one exact number; building a string instead, once per item
    // of each of a null calibration's replicates, was most of the cost of a lookup.
    const key =
      n1 < SMALL && n2 < SMALL
        ? ((n1 * SMALL + x1) * SMALL + n2) * SMALL + x2
        : `${x1},${n1},${x2},${n2}`;
    let p = cache.get(key);
    if (p === undefined) {
      p = fisherExactTwoSided(x1, n1 - x1, x2, n2 - x2);
      cache.set(key, p);
    }
    return p;
  };
}

/**
 * Fisher's exact test, one-sided: P(A ≥ a) under the hypergeometric law of the table with its
 * margins fixed — small when row 1 has more successes than the margins make likely (R:
 * fisher.test(matrix(c(a, c, b, d), 2), alternative = "greater")).
 */
export function fisherExactGreater(a: number, b: number, c: number, d: number): number {
  const { low, pmf } = tableLaw('fisherExactGreater', a, b, c, d);
  let total = 0;
  for (let j = a - low; j < pmf.length; j++) total += pmf[j] as number;
  return Math.min(1, total);
}

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

const RELATIVE_TOLERANCE = 1 + 1e-7;

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++) {
    logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  }
  return logFactorials[n] as number;
}

function logChoose(n: number, k: number): number {
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

export function fisherExactTwoSided(a: number, b: number, c: number, d: number): number {
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) {
      throw new RangeError(`fisherExactTwoSided needs non-negative integer counts, got ${cell}`);
    }
  }
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const n = row1 + row2;
  const lowest = Math.max(0, column1 - row2);
  const highest = Math.min(row1, column1);
  if (lowest === highest) return 1;
  const denominator = logChoose(n, column1);
  const logP = (k: number): number =>
    logChoose(row1, k) + logChoose(row2, column1 - k) - denominator;
  const observed = Math.exp(logP(a));
  let total = 0;
  for (let k = lowest; k <= highest; k++) {
    const p = Math.exp(logP(k));
    if (p <= observed * RELATIVE_TOLERANCE) total += p;
  }
  return Math.min(1, total);
}

/**
 * Fisher's test on two binomial samples: x1 successes of n1 against x2 of n2. Memoised,
 * since the same small tables repeat across thousands of items and null replicates.
 */
export function createFisherCache(): (x1: number, n1: number, x2: number, n2: number) => number {
  const cache = new Map<string, number>();
  return (x1, n1, x2, n2) => {
    const key = `${x1},${n1},${x2},${n2}`;
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
  for (const cell of [a, b, c, d]) {
    if (!Number.isInteger(cell) || cell < 0) {
      throw new RangeError(`fisherExactGreater needs non-negative integer counts, got ${cell}`);
    }
  }
  const row1 = a + b;
  const row2 = c + d;
  const column1 = a + c;
  const highest = Math.min(row1, column1);
  const denominator = logChoose(row1 + row2, column1);
  let total = 0;
  for (let k = a; k <= highest; k++) {
    total += Math.exp(logChoose(row1, k) + logChoose(row2, column1 - k) - denominator);
  }
  return Math.min(1, total);
}

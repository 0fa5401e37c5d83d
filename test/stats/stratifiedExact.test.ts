import { describe, expect, it } from 'vitest';
import { stratifiedExactTest } from '../../src/stats/stratifiedExact.js';

describe('stratifiedExactTest', () => {
  it('is the one-sided Fisher test on a single table', () => {
    // 3/3 against 0/3: P(x2 = 0 | t = 3) = C(3,0)·C(3,3)/C(6,3) = 1/20, as R's
    // fisher.test(matrix(c(3, 0, 0, 3), 2), alternative = "greater").
    const r = stratifiedExactTest([{ x1: 3, n1: 3, x2: 0, n2: 3 }]);
    expect(r.pLower).toBeCloseTo(0.05, 14);
    expect(r.pUpper).toBeCloseTo(1, 14);
    expect(r.expected).toBeCloseTo(1.5, 14);
    // n1·n2·t·(N − t)/(N²(N − 1)) = 3·3·3·3/(36·5) = 0.45.
    expect(r.variance).toBeCloseTo(0.45, 14);
  });

  it('convolves the strata and leaves settled ones out of the evidence', () => {
    // Stratum A as above (P(k) = 1, 9, 9, 1 over 20), stratum B 1/2 against 1/2 (t = 2,
    // P(k) = 1, 4, 1 over 6). T = 0 + 1; P(T ≤ 1) = (1·1 + 1·4 + 9·1)/120 = 14/120.
    // Strata at 0/5 and 5/5 in both groups have one possible table each.
    const r = stratifiedExactTest([
      { x1: 3, n1: 3, x2: 0, n2: 3 },
      { x1: 1, n1: 2, x2: 1, n2: 2 },
      { x1: 0, n1: 5, x2: 0, n2: 5 },
      { x1: 5, n1: 5, x2: 5, n2: 5 },
    ]);
    expect(r.statistic).toBe(6);
    expect(r.informative).toBe(2);
    expect(r.pLower).toBeCloseTo(14 / 120, 14);
    // P(T ≥ 1) = 1 − P(T = 0) = 1 − 1/120.
    expect(r.pUpper).toBeCloseTo(119 / 120, 14);
    expect(r.expected).toBeCloseTo(1.5 + 1 + 0 + 5, 14);
  });

  it('gives p = 1 both ways when every stratum is settled', () => {
    const r = stratifiedExactTest([
      { x1: 0, n1: 10, x2: 0, n2: 10 },
      { x1: 10, n1: 10, x2: 10, n2: 10 },
    ]);
    expect(r).toMatchObject({ pLower: 1, pUpper: 1, variance: 0, informative: 0 });
  });
});

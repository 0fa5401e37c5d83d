import { describe, expect, it } from 'vitest';
import { binomialPmf, binomialUpperTail } from '../../src/stats/binomial.js';

describe('binomialUpperTail', () => {
  it('equals the hand sum for ten fair coins, at least 8 heads', () => {
    // (C(10,8) + C(10,9) + C(10,10)) / 2^10 = (45 + 10 + 1) / 1024 = 56/1024
    expect(binomialUpperTail(8, 10, 0.5)).toBeCloseTo(56 / 1024, 15);
  });

  it('equals the hand sum for three answers against a one-in-six chance', () => {
    // P(X ≥ 2) = 3·(1/6)²·(5/6) + (1/6)³ = 15/216 + 1/216 = 16/216
    expect(binomialUpperTail(2, 3, 1 / 6)).toBeCloseTo(16 / 216, 15);
  });

  it('takes the complement below the mean without losing precision', () => {
    // P(X ≥ 3 | n = 9, p = 1/3) = 1 − [(2/3)^9 + 9·(1/3)(2/3)^8 + 36·(1/3)²(2/3)^7]
    //                         = 1 − (512 + 2304 + 4608) / 19683 = 12259/19683
    expect(binomialUpperTail(3, 9, 1 / 3)).toBeCloseTo(12259 / 19683, 14);
  });

  it('matches published reference values (scipy.stats.binom.sf)', () => {
    // scipy 1.17: binom.sf(20, 36, 1/6) = 1.902656258666272e-08 (21 of 36 answers right
    // against chance 1/6, the figure of a six-assistant audit), binom.sf(499, 1000, 0.5) =
    // 0.5126125090891802, binom.sf(2, 36, 1/6) = 0.952878228488458.
    expect(binomialUpperTail(21, 36, 1 / 6) / 1.902656258666272e-8).toBeCloseTo(1, 10);
    expect(binomialUpperTail(500, 1000, 0.5)).toBeCloseTo(0.5126125090891802, 12);
    expect(binomialUpperTail(3, 36, 1 / 6)).toBeCloseTo(0.952878228488458, 12);
  });

  it('handles the edges: k ≤ 0, k > n, p of 0 or 1', () => {
    expect(binomialUpperTail(0, 5, 0.3)).toBe(1);
    expect(binomialUpperTail(6, 5, 0.3)).toBe(0);
    expect(binomialUpperTail(1, 5, 0)).toBe(0);
    expect(binomialUpperTail(5, 5, 1)).toBe(1);
  });

  it('rejects impossible arguments', () => {
    expect(() => binomialUpperTail(1, 5, 1.5)).toThrow(RangeError);
    expect(() => binomialUpperTail(1, -1, 0.5)).toThrow(RangeError);
    expect(() => binomialUpperTail(1.5, 5, 0.5)).toThrow(RangeError);
  });
});

describe('binomialPmf', () => {
  it('sums to one and matches C(n,k) p^k (1−p)^(n−k)', () => {
    // C(5,2)·0.3²·0.7³ = 10 · 0.09 · 0.343 = 0.3087
    expect(binomialPmf(2, 5, 0.3)).toBeCloseTo(0.3087, 14);
    let total = 0;
    for (let k = 0; k <= 40; k++) total += binomialPmf(k, 40, 0.17);
    expect(total).toBeCloseTo(1, 12);
  });
});

import { describe, expect, it } from 'vitest';
import { binomialPmf } from '../../src/stats/binomial.js';

describe('binomialPmf', () => {
  it('sums to one and matches C(n,k) p^k (1−p)^(n−k)', () => {
    // C(5,2)·0.3²·0.7³ = 10 · 0.09 · 0.343 = 0.3087
    expect(binomialPmf(2, 5, 0.3)).toBeCloseTo(0.3087, 14);
    let total = 0;
    for (let k = 0; k <= 40; k++) total += binomialPmf(k, 40, 0.17);
    expect(total).toBeCloseTo(1, 12);
  });

  it('is zero outside 0…n and rejects impossible arguments', () => {
    expect(binomialPmf(6, 5, 0.3)).toBe(0);
    expect(binomialPmf(0, 5, 0)).toBe(1);
    expect(() => binomialPmf(1, 5, 1.5)).toThrow(RangeError);
    expect(() => binomialPmf(1, -1, 0.5)).toThrow(RangeError);
    expect(() => binomialPmf(1.5, 5, 0.5)).toThrow(RangeError);
  });
});

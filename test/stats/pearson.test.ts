import { describe, expect, it } from 'vitest';
import { pearson } from '../../src/stats/pearson.js';
import { spearmanBrown } from '../../src/stats/spearmanBrown.js';

describe('pearson', () => {
  it('matches a hand computation', () => {
    // x̄ = 3, ȳ = 4; Σdxdy = 4 + 0 + 0 + 0 + 2 = 6, Σdx² = 10, Σdy² = 6 → r = 6/sqrt(60).
    expect(pearson([1, 2, 3, 4, 5], [2, 4, 5, 4, 5])).toBeCloseTo(6 / Math.sqrt(60), 15);
  });

  it('is ±1 on exact linear relations and NaN without spread', () => {
    expect(pearson([1, 2, 3], [10, 8, 6])).toBeCloseTo(-1, 15);
    expect(Number.isNaN(pearson([1, 1, 1], [1, 2, 3]))).toBe(true);
  });
});

describe('spearmanBrown', () => {
  it('doubles a half-test correlation into a full-test reliability', () => {
    // 2·0.5/(1 + 0.5) = 2/3; three times a test of reliability 0.4: 1.2/1.8 = 2/3.
    expect(spearmanBrown(0.5)).toBeCloseTo(2 / 3, 15);
    expect(spearmanBrown(0.4, 3)).toBeCloseTo(2 / 3, 15);
    expect(spearmanBrown(1)).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import {
  createFisherCache,
  fisherExactGreater,
  fisherExactTwoSided,
} from '../../src/stats/fisher.js';

describe('fisherExactTwoSided', () => {
  it("reproduces Fisher's tea-tasting example", () => {
    // Margins 4/4/4/4, n = 8: P(a = k) = C(4,k)C(4,4−k)/70 = 1, 16, 36, 16, 1 (/70).
    // Observed a = 3 (p = 16/70): tables at most as probable are k = 0, 1, 3, 4 → 34/70.
    // R: fisher.test(matrix(c(3, 1, 1, 3), 2))$p.value = 0.4857143.
    expect(fisherExactTwoSided(3, 1, 1, 3)).toBeCloseTo(34 / 70, 12);
  });

  it('matches a hand computation with unequal tails', () => {
    // 7/10 against 2/10: a=7, b=3, c=2, d=8; rows 10/10, column 9, n = 20, C(20,9) = 167960.
    // C(10,k)C(10,9−k) for k = 0..9: 10, 450, 5400, 25200, 52920, 52920, 25200, 5400, 450, 10.
    // Observed k = 7 (5400): k ∈ {0,1,2,7,8,9} → 11720/167960 = 0.0697785187.
    expect(fisherExactTwoSided(7, 3, 2, 8)).toBeCloseTo(11720 / 167960, 12);
  });

  it('counts tables of equal probability on both sides', () => {
    // rows 5/5, column 4, n = 10, C(10,4) = 210: C(5,k)C(5,4−k) = 5, 50, 100, 50, 5.
    // Observed k = 0 (5/210): k = 0 and k = 4 → 10/210.
    expect(fisherExactTwoSided(0, 5, 4, 1)).toBeCloseTo(10 / 210, 12);
    // Complete separation 10/10 against 0/10: 2/C(20,10) = 2/184756.
    expect(fisherExactTwoSided(10, 0, 0, 10)).toBeCloseTo(2 / 184756, 15);
  });

  it('is 1 when the margins leave one table', () => {
    expect(fisherExactTwoSided(10, 0, 10, 0)).toBe(1);
    expect(fisherExactTwoSided(0, 0, 3, 4)).toBe(1);
  });

  it('caches by counts', () => {
    const fisher = createFisherCache();
    expect(fisher(7, 10, 2, 10)).toBeCloseTo(11720 / 167960, 12);
    expect(fisher(7, 10, 2, 10)).toBe(fisher(7, 10, 2, 10));
    // Every table of small counts its own entry, and counts past the numeric key's range too.
    for (const [x1, n1, x2, n2] of [
      [2, 10, 7, 10],
      [7, 9, 2, 10],
      [7, 10, 2, 11],
      [0, 1, 1, 1],
      [4_000, 9_000, 4_300, 9_000],
    ] as const) {
      expect(fisher(x1, n1, x2, n2)).toBe(fisherExactTwoSided(x1, n1 - x1, x2, n2 - x2));
    }
  });
});

describe('fisherExactGreater', () => {
  it("reproduces the one-sided p of Fisher's tea-tasting example", () => {
    // Fisher (1935): 4 cups of each kind, 3 of 4 milk-first cups named. P(A ≥ 3) =
    // [C(4,3)·C(4,1) + C(4,4)·C(4,0)] / C(8,4) = (16 + 1) / 70.
    expect(fisherExactGreater(3, 1, 1, 3)).toBeCloseTo(17 / 70, 12);
    expect(fisherExactGreater(4, 0, 0, 4)).toBeCloseTo(1 / 70, 12);
  });

  it('is 1 at the lowest possible count and sums the upper tail only', () => {
    expect(fisherExactGreater(0, 4, 4, 0)).toBeCloseTo(1, 12);
    // 5 of 8 against 2 of 8: P(A ≥ 5) with column total 7 of 16 = [C(8,5)C(8,2) +
    // C(8,6)C(8,1) + C(8,7)C(8,0)] / C(16,7) = (1568 + 224 + 8) / 11440.
    expect(fisherExactGreater(5, 3, 2, 6)).toBeCloseTo(1800 / 11440, 12);
  });
});

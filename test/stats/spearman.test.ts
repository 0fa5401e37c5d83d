import { describe, expect, it } from 'vitest';
import { averageRanks, spearman } from '../../src/stats/spearman.js';

describe('averageRanks', () => {
  it('gives tied values the mean of the ranks they span', () => {
    // sorted: 1 (rank 1), 2 and 2 (ranks 2 and 3 → 2.5 each), 3 (rank 4)
    expect(averageRanks([3, 2, 1, 2])).toEqual([4, 2.5, 1, 2.5]);
  });
});

describe('spearman', () => {
  it('reproduces the published IQ / television example (ρ = −29/165)', () => {
    // Wikipedia, "Spearman's rank correlation coefficient", worked example: ten people's IQ
    // and weekly hours of television, ρ = −29/165 ≈ −0.1758 (scipy.stats.spearmanr agrees).
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    expect(spearman(iq, tv)).toBeCloseTo(-29 / 165, 12);
  });

  it('handles ties through average ranks', () => {
    // x ranks [1, 2.5, 2.5, 4], y ranks [1, 3, 2, 4], both means 2.5:
    // Σdxdy = 2.25 + 0 + 0 + 2.25 = 4.5, Σdx² = 4.5, Σdy² = 5 → ρ = 4.5 / √22.5 = 0.948683
    expect(spearman([1, 2, 2, 3], [1, 3, 2, 4])).toBeCloseTo(4.5 / Math.sqrt(22.5), 12);
  });

  it('is 1 for any increasing relation and −1 for a decreasing one', () => {
    expect(spearman([1, 2, 3, 4], [1, 4, 9, 100])).toBeCloseTo(1, 12);
    expect(spearman([1, 2, 3, 4], [10, 5, 2, 1])).toBeCloseTo(-1, 12);
  });

  it('is undefined (null) for a constant list or fewer than two pairs', () => {
    expect(spearman([1, 1, 1], [1, 2, 3])).toBeNull();
    expect(spearman([1], [2])).toBeNull();
    expect(() => spearman([1, 2], [1])).toThrow(RangeError);
  });
});

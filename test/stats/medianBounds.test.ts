import { describe, expect, it } from 'vitest';
import { lowerBoundRank, medianBounds } from '../../src/stats/medianBounds.js';
import { createRng, type Rng } from '../../src/stats/prng.js';

/** Box–Muller: one standard normal draw from two uniforms. */
function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

describe('lowerBoundRank', () => {
  // Conover (1999), Table A3 / the usual sign-test table: two-sided 95% intervals for the
  // median are (x₍ₖ₎, x₍ₙ₋ₖ₊₁₎) with k = 2 for n = 10, k = 4 for n = 15 (coverage 0.9648),
  // k = 6 for n = 20 (0.9586), k = 8 for n = 25 (0.9567); one-sided at 0.025 each.
  it.each([
    [10, 2],
    [15, 4],
    [20, 6],
    [25, 8],
  ])('n = %d at α = 0.025 → rank %d', (n, k) => {
    expect(lowerBoundRank(n, 0.025)).toBe(k);
  });

  it('is the largest rank whose binomial tail stays at or below α (hand computed)', () => {
    // n = 10: P(B ≤ 1) = 11/1024 = 0.0107 ≤ 0.025 < P(B ≤ 2) = 56/1024 = 0.0547.
    expect(lowerBoundRank(10, 11 / 1024)).toBe(2);
    expect(lowerBoundRank(10, 11 / 1024 - 1e-9)).toBe(1);
    // n = 5: 2⁻⁵ = 0.03125 > 0.025: no bound at all.
    expect(lowerBoundRank(5, 0.025)).toBe(0);
    expect(lowerBoundRank(6, 0.025)).toBe(1);
  });
});

describe('medianBounds', () => {
  it('takes the order statistics at the rank, whatever the tails hold', () => {
    const values = [9, 1, 8, 2, 7, 3, 6, 4, 5, 1e9];
    expect(medianBounds(values, 0.025)).toEqual({ median: 5.5, low: 2, high: 9 });
  });

  it('has no bounds when too few values', () => {
    expect(medianBounds([1, 2, 3], 0.025)).toEqual({ median: 2, low: null, high: null });
    expect(medianBounds([], 0.025).median).toBeNaN();
  });

  it('misses the true median in at most α of samples (lognormal, 4,000 draws of 30)', () => {
    const rng = createRng(11);
    let above = 0;
    const runs = 4000;
    for (let run = 0; run < runs; run++) {
      const values = Array.from({ length: 30 }, () => Math.exp(normal(rng) * 0.8));
      const { low } = medianBounds(values, 0.05);
      if (low !== null && low > 1) above++;
    }
    // Exact level for n = 30 at 0.05: P(B ≤ 10) = 0.0494; 4,000 runs give ±0.011 at 3 sd.
    expect(above / runs).toBeLessThan(0.0494 + 0.011);
    expect(above / runs).toBeGreaterThan(0.0494 - 0.011);
  });
});

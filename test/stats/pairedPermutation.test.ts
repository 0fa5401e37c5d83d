import { describe, expect, it } from 'vitest';
import { pairedPermutationTest } from '../../src/stats/pairedPermutation.js';

/** Sum of the differences a − b, with the swapped units' differences negated. */
const sumOfDifferences = (d: readonly number[]) => (swapped: readonly boolean[]) =>
  d.reduce((sum, x, i) => sum + (swapped[i] ? -x : x), 0);

describe('paired permutation (sign-flip) test', () => {
  it('counts the patterns at least as extreme, by hand', () => {
    // Differences 1, 2, 3: the 8 sign patterns give sums 6, 4, 2, 0, 0, −2, −4, −6.
    // Observed 6: only itself → p = 1/8. Differences 3, −1, 2 (observed 4): patterns with a sum
    // ≥ 4 are (+3,−1,+2)=4 and (+3,+1,+2)=6 → p = 2/8.
    const a = pairedPermutationTest(3, sumOfDifferences([1, 2, 3]), { draws: 0, seed: 1 });
    expect(a).toEqual({ observed: 6, pValue: 1 / 8, patterns: 8, exact: true });
    const b = pairedPermutationTest(3, sumOfDifferences([3, -1, 2]), { draws: 0, seed: 1 });
    expect(b.pValue).toBe(2 / 8);
  });

  it('matches the exact one-sided sign-test tail for ±1 differences', () => {
    // Ten units, differences all +1 except two −1: observed sum 6. The statistic depends only on
    // how many signs are +: P(sum ≥ 6) = P(#plus ≥ 8) = (45 + 10 + 1)/1024 under Binomial(10, ½).
    const d = [1, 1, 1, 1, 1, 1, 1, 1, -1, -1];
    const r = pairedPermutationTest(10, sumOfDifferences(d), { draws: 0, seed: 1 });
    expect(r.pValue).toBeCloseTo(56 / 1024, 15);
  });

  it('draws patterns above the exact limit and stays close to the exact value', () => {
    const d = [1, 1, 1, 1, 1, 1, 1, 1, -1, -1];
    const r = pairedPermutationTest(10, sumOfDifferences(d), {
      draws: 20_000,
      seed: 3,
      exactUpTo: 4,
    });
    expect(r.exact).toBe(false);
    expect(r.pValue).toBeGreaterThan(56 / 1024 - 0.006);
    expect(r.pValue).toBeLessThan(56 / 1024 + 0.006);
  });

  it('never rejects two identical conditions: every pattern ties with the observed 0', () => {
    const r = pairedPermutationTest(5, sumOfDifferences([0, 0, 0, 0, 0]), { draws: 0, seed: 1 });
    expect(r.pValue).toBe(1);
  });
});

/**
 * Dispersion of a share difference counted in strata, and the p-value shrunk by it. Expected
 * numbers are worked by hand from the definitions in src/stats/dispersion.ts (the normal tail
 * values from Φ⁻¹(0.975) = 1.959964 and Φ⁻¹(0.999) = 3.090232).
 */
import { describe, expect, it } from 'vitest';
import { shareDifferenceDispersion, shrunkOneSidedP } from '../../src/stats/dispersion.js';

const stratum = (hits0: number, answers0: number, hits1: number, answers1: number) => ({
  hits0,
  answers0,
  hits1,
  answers1,
});

describe('shareDifferenceDispersion', () => {
  it('is large when the strata disagree in turn', () => {
    // d = 1, −1, 1, −1 (4 answers a side): mean 0, Σd² = 4, variance 4/3, over k = 4: 1/3.
    // Pooled: 8/16 on each side, π = 1/2, binomial 1/4 · (1/16 + 1/16) = 1/32. φ = 32/3.
    const strata = [
      stratum(0, 4, 4, 4),
      stratum(4, 4, 0, 4),
      stratum(0, 4, 4, 4),
      stratum(4, 4, 0, 4),
    ];
    expect(shareDifferenceDispersion(strata)).toBeCloseTo(32 / 3, 12);
  });

  it('measures a moderate disagreement', () => {
    // 8 answers a side. Side 0: 1 hit in each stratum; side 1: 5, 1, 5, 1.
    // d = 0.5, 0, 0.5, 0: mean 0.25, Σ(d − d̄)² = 0.25, /3 /4 = 1/48.
    // Pooled: 4/32 and 12/32, π = 1/4, binomial 3/16 · (1/32 + 1/32) = 3/256. φ = (1/48)/(3/256) = 16/9.
    const strata = [
      stratum(1, 8, 5, 8),
      stratum(1, 8, 1, 8),
      stratum(1, 8, 5, 8),
      stratum(1, 8, 1, 8),
    ];
    expect(shareDifferenceDispersion(strata)).toBeCloseTo(16 / 9, 12);
  });

  it('is 1 when the strata agree at least as well as independent answers', () => {
    // Side 1: 3, 1, 5, 3 of 8 against 1 of 8 each: d = 0.25, 0, 0.5, 0.25, variance 1/96 over
    // k = 4 gives 1/96 < binomial 3/256: floored at 1. Identical differences: 0 < binomial.
    const spread = [
      stratum(1, 8, 3, 8),
      stratum(1, 8, 1, 8),
      stratum(1, 8, 5, 8),
      stratum(1, 8, 3, 8),
    ];
    expect(shareDifferenceDispersion(spread)).toBe(1);
    const same = [stratum(0, 8, 4, 8), stratum(0, 8, 4, 8), stratum(0, 8, 4, 8)];
    expect(shareDifferenceDispersion(same)).toBe(1);
  });

  it('is 1 without two strata answered on both sides, or with a pooled share of 0 or 1', () => {
    expect(shareDifferenceDispersion([stratum(0, 4, 4, 4)])).toBe(1);
    expect(shareDifferenceDispersion([stratum(0, 4, 4, 4), stratum(4, 0, 0, 4)])).toBe(1);
    expect(shareDifferenceDispersion([stratum(0, 4, 0, 4), stratum(0, 4, 0, 4)])).toBe(1);
    expect(shareDifferenceDispersion([stratum(4, 4, 4, 4), stratum(4, 4, 4, 4)])).toBe(1);
  });
});

describe('shrunkOneSidedP', () => {
  it('divides the normal score by √φ', () => {
    // p = 0.025: score 1.959964; φ = 4 → 0.979982, upper tail 0.163548.
    expect(shrunkOneSidedP(0.025, 4)).toBeCloseTo(0.163548, 6);
    // p = 0.001: score 3.090232; φ = 16/9 → 2.317674, upper tail 0.010234.
    expect(shrunkOneSidedP(0.001, 16 / 9)).toBeCloseTo(0.010234, 6);
  });

  it('leaves p alone at φ = 1, and keeps 0 and 1', () => {
    expect(shrunkOneSidedP(0.0123, 1)).toBe(0.0123);
    expect(shrunkOneSidedP(1, 5)).toBe(1);
    expect(shrunkOneSidedP(0, 5)).toBe(0);
  });

  it('stays accurate for the smallest p-values', () => {
    // p = 1e-20: score 9.262340; φ = 4 → 4.631170, upper tail 1.818025e-6.
    expect(shrunkOneSidedP(1e-20, 4)).toBeCloseTo(1.818025e-6, 11);
    expect(shrunkOneSidedP(1e-20, 4)).toBeGreaterThan(shrunkOneSidedP(1e-21, 4));
  });
});

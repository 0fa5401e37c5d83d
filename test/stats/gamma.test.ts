import { describe, expect, it } from 'vitest';
import { logGamma, regularizedBeta } from '../../src/stats/gamma.js';

describe('logGamma', () => {
  it('matches known values', () => {
    // Γ(1) = 1; Γ(½) = √π; Γ(10) = 9! = 362880; Γ(0.1) = 9.513507698668732 (A&S table 6.1).
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 14);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    expect(logGamma(0.1)).toBeCloseTo(Math.log(9.513507698668732), 13);
  });
});

describe('regularizedBeta', () => {
  it('matches the closed forms for integer parameters', () => {
    // I_x(a, 1) = x^a, I_x(1, b) = 1 − (1 − x)^b, I_½(a, a) = ½ by symmetry.
    expect(regularizedBeta(0.3, 4, 1)).toBeCloseTo(0.3 ** 4, 14);
    expect(regularizedBeta(0.3, 1, 5)).toBeCloseTo(1 - 0.7 ** 5, 14);
    expect(regularizedBeta(0.8, 1, 5)).toBeCloseTo(1 - 0.2 ** 5, 14);
    expect(regularizedBeta(0.5, 7.5, 7.5)).toBeCloseTo(0.5, 14);
    // I_x(2, 2) = 3x² − 2x³: at x = 0.25, 0.1875 − 0.03125 = 0.15625.
    expect(regularizedBeta(0.25, 2, 2)).toBeCloseTo(0.15625, 14);
  });
});

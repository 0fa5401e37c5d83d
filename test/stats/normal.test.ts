import { describe, expect, it } from 'vitest';
import { normalCdf, normalQuantile, normalSurvival } from '../../src/stats/normal.js';

// Reference values: R 4.x `pnorm` / `qnorm` printed with 16 significant digits (these
// agree with Abramowitz & Stegun table 26.1 and with Wichura 1988, table 1, to the digits
// those tables give).
describe('normalCdf', () => {
  it.each([
    [0, 0.5],
    [-1, 0.15865525393145705],
    [1.96, 0.9750021048517795],
    [-3, 0.0013498980316301],
    [-5, 2.866515718791939e-7],
    [-10, 7.619853024160527e-24],
  ])('Φ(%d) = %d', (x, expected) => {
    expect(Math.abs(normalCdf(x) - expected) / expected).toBeLessThan(1e-14);
  });

  it('keeps relative accuracy in the upper tail', () => {
    // 1 − Φ(8) = 6.220960574271785e-16 (R: pnorm(8, lower.tail = FALSE)); 1 − normalCdf(8)
    // would lose every digit here.
    expect(Math.abs(normalSurvival(8) / 6.220960574271785e-16 - 1)).toBeLessThan(1e-13);
  });

  it('is symmetric: Φ(−x) + Φ(x) = 1', () => {
    for (const x of [0.1, 0.5, 0.7, 1.3, 2.2, 4.1]) {
      expect(normalCdf(-x) + normalCdf(x)).toBeCloseTo(1, 15);
    }
  });
});

describe('normalQuantile', () => {
  it.each([
    [0.975, 1.959963984540054],
    [0.995, 2.5758293035489],
    [0.95, 1.6448536269514722],
    [0.9, 1.2815515655446004],
    [0.001, -3.090232306167814],
    [1e-10, -6.361340902404056],
  ])('Φ⁻¹(%d) = %d', (p, expected) => {
    expect(Math.abs(normalQuantile(p) - expected)).toBeLessThan(1e-14 * Math.abs(expected));
  });

  it('is 0 at the median and infinite at 0 and 1', () => {
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0)).toBe(Number.NEGATIVE_INFINITY);
    expect(normalQuantile(1)).toBe(Number.POSITIVE_INFINITY);
  });

  it('inverts normalCdf across the range', () => {
    for (const p of [1e-300, 1e-20, 1e-6, 0.01, 0.2, 0.4, 0.6, 0.77, 0.999]) {
      expect(Math.abs(normalCdf(normalQuantile(p)) / p - 1)).toBeLessThan(1e-13);
    }
  });

  it('rejects values outside [0, 1]', () => {
    expect(() => normalQuantile(1.2)).toThrow(RangeError);
    expect(() => normalQuantile(Number.NaN)).toThrow(RangeError);
  });
});

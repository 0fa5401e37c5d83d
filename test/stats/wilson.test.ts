import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../src/stats/wilson.js';

describe('wilsonInterval', () => {
  // Newcombe (1998), "Two-sided confidence intervals for the single proportion", Statistics
  // in Medicine 17:857–872, Table I, method 3 (score interval without continuity correction),
  // printed to 4 decimals.
  it.each([
    [81, 263, 0.2553, 0.3662],
    [15, 148, 0.0624, 0.1605],
    [0, 20, 0.0, 0.1611],
    [1, 29, 0.0061, 0.1718],
  ])('%d/%d → [%d, %d] (Newcombe 1998, Table I)', (x, n, low, high) => {
    const interval = wilsonInterval(x, n);
    expect(interval.low).toBeCloseTo(low, 4);
    expect(interval.high).toBeCloseTo(high, 4);
  });

  it('matches the closed form for 0 successes to 1e-12', () => {
    // x = 0: centre = (z²/2)/(n+z²), half = z·sqrt(z²/4)/(n+z²) = (z²/2)/(n+z²), so
    // low = 0 and high = z²/(n+z²). z = 1.959963984540054, z² = 3.841458820694124,
    // n = 20: high = 3.841458820694124 / 23.841458820694124 = 0.16112515...
    const z2 = 1.959963984540054 ** 2;
    const interval = wilsonInterval(0, 20);
    expect(interval.low).toBe(0);
    expect(interval.high).toBeCloseTo(z2 / (20 + z2), 12);
  });

  it('is symmetric: the interval for n − x mirrors the one for x', () => {
    const a = wilsonInterval(3, 17, 0.9);
    const b = wilsonInterval(14, 17, 0.9);
    expect(a.low).toBeCloseTo(1 - b.high, 14);
    expect(a.high).toBeCloseTo(1 - b.low, 14);
  });

  it('widens with the confidence level', () => {
    const narrow = wilsonInterval(5, 10, 0.8);
    const wide = wilsonInterval(5, 10, 0.99);
    expect(wide.low).toBeLessThan(narrow.low);
    expect(wide.high).toBeGreaterThan(narrow.high);
  });

  it('is [0, 1] with no trials', () => {
    expect(wilsonInterval(0, 0)).toEqual({ low: 0, high: 1 });
  });

  it('rejects impossible counts', () => {
    expect(() => wilsonInterval(5, 3)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 3)).toThrow(RangeError);
  });
});

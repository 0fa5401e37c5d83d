import { describe, expect, it } from 'vitest';
import { studentTCdf, studentTQuantile, tInterval } from '../../src/stats/studentT.js';

describe('studentTQuantile', () => {
  // R 4.x qt(), printed with 16 significant digits.
  it.each([
    [0.975, 10, 2.228138851986274],
    [0.975, 30, 2.042272456301238],
    [0.975, 3, 3.182446305284263],
    [0.95, 3, 2.353363434801823],
    [0.995, 5, 4.032142983557536],
  ])('t(%d, df=%d) = %d', (p, df, expected) => {
    expect(studentTQuantile(p, df)).toBeCloseTo(expected, 11);
    expect(studentTQuantile(1 - p, df)).toBeCloseTo(-expected, 11);
  });

  it('matches the closed form for 4 degrees of freedom', () => {
    // ν = 4: with α = 4p(1 − p), q = cos(arccos(√α)/3)/√α, t = 2·sqrt(q − 1) for p > ½
    // (Shaw, "Sampling Student's T distribution", J. Comp. Finance 9, 2006).
    const p = 0.9;
    const alpha = 4 * p * (1 - p);
    const q = Math.cos(Math.acos(Math.sqrt(alpha)) / 3) / Math.sqrt(alpha);
    expect(studentTQuantile(p, 4)).toBeCloseTo(2 * Math.sqrt(q - 1), 12);
  });

  it('uses the Cauchy and ν = 2 closed forms', () => {
    // ν = 1: tan(π·0.475) = 12.706204736174707; ν = 2: 0.95/sqrt(2·0.975·0.025).
    expect(studentTQuantile(0.975, 1)).toBeCloseTo(12.706204736174707, 10);
    expect(studentTQuantile(0.975, 2)).toBeCloseTo(0.95 / Math.sqrt(0.04875), 13);
  });

  it('approaches the normal quantile for large df', () => {
    expect(studentTQuantile(0.975, 1e7)).toBeCloseTo(1.959963984540054, 6);
  });

  it('inverts the CDF', () => {
    for (const df of [1.5, 3, 7, 25]) {
      for (const p of [0.01, 0.3, 0.8, 0.999]) {
        expect(studentTCdf(studentTQuantile(p, df), df)).toBeCloseTo(p, 12);
      }
    }
  });
});

describe('tInterval', () => {
  it('matches a hand computation', () => {
    // [1, 2, 3, 4]: mean 2.5; s² = (2.25 + 0.25 + 0.25 + 2.25)/3 = 5/3;
    // SE = sqrt(5/3 / 4) = 0.6454972243679028; t(0.975, 3) = 3.182446305284263;
    // half-width = 2.0542775 → [0.4457224958, 4.5542775042].
    const result = tInterval([1, 2, 3, 4]);
    const half = 3.182446305284263 * Math.sqrt(5 / 12);
    expect(result.mean).toBe(2.5);
    expect(result.standardError).toBeCloseTo(0.6454972243679028, 14);
    expect(result.low).toBeCloseTo(2.5 - half, 10);
    expect(result.high).toBeCloseTo(2.5 + half, 10);
  });

  it('is undefined below two values', () => {
    expect(Number.isNaN(tInterval([0.3]).low)).toBe(true);
    expect(tInterval([0.3]).mean).toBe(0.3);
  });
});

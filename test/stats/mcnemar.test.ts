import { describe, expect, it } from 'vitest';
import { mcnemarTest } from '../../src/stats/mcnemar.js';

describe('mcnemarTest', () => {
  it('reproduces the worked example of Fagerland, Lydersen & Laake (2013)', () => {
    // Discordant pairs 1 and 7 (m = 8): P(X ≤ 1) = (1 + 8)/256.
    // exact = 2·9/256 = 0.0703125 (paper: 0.070); mid-p = 18/256 − 8/256 = 0.0390625 (0.039).
    const result = mcnemarTest(1, 7);
    expect(result.exactP).toBeCloseTo(18 / 256, 14);
    expect(result.midP).toBeCloseTo(10 / 256, 14);
  });

  it('matches hand computations', () => {
    // 0 against 3: P(X ≤ 0) = 1/8 → exact 0.25, mid-p 0.25 − 0.125 = 0.125.
    expect(mcnemarTest(3, 0).exactP).toBeCloseTo(0.25, 14);
    expect(mcnemarTest(3, 0).midP).toBeCloseTo(0.125, 14);
    // 1 against 1: P(X ≤ 1) = 3/4 → exact capped at 1, mid-p 1.5 − 0.5 = 1.
    expect(mcnemarTest(1, 1).exactP).toBe(1);
    expect(mcnemarTest(1, 1).midP).toBeCloseTo(1, 14);
    expect(mcnemarTest(0, 0)).toEqual({ worse: 0, better: 0, exactP: 1, midP: 1 });
  });

  it('stays finite for many discordant pairs', () => {
    // 2000 discordant pairs split evenly: p close to 1, not NaN from 2^−2000 underflow.
    const result = mcnemarTest(1000, 1000);
    expect(result.midP).toBeGreaterThan(0.95);
    expect(result.midP).toBeLessThanOrEqual(1);
  });
});

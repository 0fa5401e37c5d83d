import { describe, expect, it } from 'vitest';
import {
  biasCorrectedPercentileInterval,
  percentileBootstrap,
  percentileInterval,
} from '../../src/stats/bootstrap.js';
import { createRng, type Rng } from '../../src/stats/prng.js';
import { median, quantile } from '../../src/stats/quantile.js';

/** An Rng whose int() replays a fixed list, so the resamples are known in advance. */
function scriptedRng(indices: number[]): Rng {
  let position = 0;
  const rng = createRng(1);
  return { ...rng, int: () => indices[position++ % indices.length] as number };
}

describe('quantile', () => {
  it('interpolates like R type 7', () => {
    // 1..10, p = 0.95: h = 9·0.95 = 8.55 → x[8] + 0.55·(x[9] − x[8]) = 9 + 0.55 = 9.55.
    expect(quantile([10, 9, 8, 7, 6, 5, 4, 3, 2, 1], 0.95)).toBeCloseTo(9.55, 14);
    // 1, 2, 3, 10: h = 1.5 → 2.5.
    expect(median([3, 1, 2, 10])).toBe(2.5);
  });
});

describe('percentileBootstrap', () => {
  it('takes quantiles of the replicate statistics', () => {
    // Units [0, 10, 20], mean as the statistic. The scripted indices give five resamples:
    // (0,0,0)→0, (0,0,1)→10/3, (0,1,2)→10, (1,2,2)→50/3, (2,2,2)→20.
    // Sorted replicates 0, 3.333, 10, 16.667, 20; 80% interval = quantiles 0.1 and 0.9:
    // h = 0.4 → 0 + 0.4·3.333 = 1.3333; h = 3.6 → 16.667 + 0.6·3.333 = 18.6667.
    const rng = scriptedRng([0, 0, 0, 0, 0, 1, 0, 1, 2, 1, 2, 2, 2, 2, 2]);
    const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const result = percentileBootstrap([0, 10, 20], mean, { rng, replicates: 5, confidence: 0.8 });
    expect(result.estimate).toBe(10);
    expect(result.low).toBeCloseTo(0.4 * (10 / 3), 12);
    expect(result.high).toBeCloseTo(50 / 3 + 0.6 * (10 / 3), 12);
    expect(result.replicates).toBe(5);
  });

  it('covers the known mean of a 0/1 sample close to the normal-theory width', () => {
    // 100 units, 30 ones: SE of the mean = sqrt(0.3·0.7/100) = 0.0458; the 95% percentile
    // interval should span about 2·1.96·0.0458 = 0.18.
    const units = Array.from({ length: 100 }, (_, i) => (i < 30 ? 1 : 0));
    const mean = (values: readonly number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const result = percentileBootstrap(units, mean, { rng: createRng(7), replicates: 2000 });
    expect(result.high - result.low).toBeGreaterThan(0.15);
    expect(result.high - result.low).toBeLessThan(0.21);
    expect(result.low).toBeLessThan(0.3);
    expect(result.high).toBeGreaterThan(0.3);
  });
});

describe('biasCorrectedPercentileInterval', () => {
  it('recentres the replicates on the estimate before taking quantiles', () => {
    // Estimate 0, replicates 1..5: mean 3, bias 3, shifted −2..2. 80% interval = quantiles 0.1
    // and 0.9 (type 7): h = 0.4 → −2 + 0.4 = −1.6; h = 3.6 → 1 + 0.6 = 1.6. Floor 0 clips the low
    // end. The plain percentile interval [1.4, 4.6] would exclude the estimate.
    const plain = percentileInterval(0, [1, 2, 3, 4, 5], 0.8);
    expect(plain.low).toBeCloseTo(1.4, 12);
    const corrected = biasCorrectedPercentileInterval(0, [5, 4, 3, 2, 1], 0.8, { floor: 0 });
    expect(corrected.low).toBe(0);
    expect(corrected.high).toBeCloseTo(1.6, 12);
    const unclipped = biasCorrectedPercentileInterval(0, [1, 2, 3, 4, 5], 0.8);
    expect(unclipped.low).toBeCloseTo(-1.6, 12);
  });

  it("widens to the estimate when the replicates' mean lies outside their quantiles", () => {
    // Replicates 0 ×9 and 100: mean 10, bias 9 from estimate 1 → shifted −9 ×9 and 91; the 80%
    // quantiles are −9 and 0 (h = 8.1 → −9 + 0.1·100 = 1): high 1 = estimate already; low −9.
    const r = biasCorrectedPercentileInterval(1, [0, 0, 0, 0, 0, 0, 0, 0, 0, 100], 0.8);
    expect(r.low).toBeCloseTo(-9, 12);
    expect(r.high).toBeGreaterThanOrEqual(1);
  });
});

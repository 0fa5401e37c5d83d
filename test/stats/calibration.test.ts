import { describe, expect, it } from 'vitest';
import {
  binIndex,
  brierScore,
  clusterBootstrapEce,
  confidenceLevels,
  expectedCalibrationError,
  type Forecast,
  murphyDecomposition,
  pairedClusterBootstrapEceDifference,
  tallyBins,
} from '../../src/stats/calibration.js';
import { quantileSorted as quantile } from '../../src/stats/quantile.js';
import { wilsonInterval } from '../../src/stats/wilson.js';

function repeat(confidence: number, successes: number, failures: number): Forecast[] {
  return [
    ...Array.from({ length: successes }, () => ({ confidence, success: true })),
    ...Array.from({ length: failures }, () => ({ confidence, success: false })),
  ];
}

/**
 * The documented 20-move example (also in docs/dragon-protocol.md):
 *   A: 0.90 × 5, 4 advanced     B: 0.95 × 5, 2 advanced     C: 0.50 × 4, 3 advanced
 *   D: 0.55 × 2, 1 advanced     E: 0.20 × 4, 0 advanced
 * 20 moves, 10 advanced, ō = 0.5.
 */
const EXAMPLE: Forecast[] = [
  ...repeat(0.9, 4, 1),
  ...repeat(0.95, 2, 3),
  ...repeat(0.5, 3, 1),
  ...repeat(0.55, 1, 1),
  ...repeat(0.2, 0, 4),
];

describe('the 20-move example', () => {
  it('Brier score', () => {
    // A: 4·0.1² + 0.9² = 0.85          B: 2·0.05² + 3·0.95² = 2.7125
    // C: 3·0.5² + 0.5² = 1.0           D: 0.45² + 0.55² = 0.505
    // E: 4·0.2² = 0.16                 total 5.2275 / 20 = 0.261375
    expect(brierScore(EXAMPLE)).toBeCloseTo(0.261375, 12);
  });

  it('Murphy decomposition with the within-bin terms (lower-inclusive bins)', () => {
    // Bins: [0.9, 1] holds A+B: n 10, p̄ 0.925, ō 0.6; [0.5, 0.6) holds C+D: n 6,
    // p̄ 3.1/6, ō 4/6; [0.2, 0.3) holds E: n 4, p̄ 0.2, ō 0.
    // REL = (10·0.325² + 6·0.15² + 4·0.2²)/20 = (1.05625 + 0.135 + 0.16)/20 = 0.0675625
    // RES = (10·0.1² + 6·(1/6)² + 4·0.5²)/20 = (0.1 + 1/6 + 1)/20 = 0.0633333…
    // UNC = 0.5·0.5 = 0.25
    // WBV = (5·0.025² + 5·0.025² + 4·(1/60)² + 2·(1/30)²)/20 = (0.00625 + 0.0033333…)/20
    //     = 0.000479166…
    // WBC = (2/20)·[−0.025·(4 − 5·0.6) + 0.025·(2 − 5·0.6) − (1/60)(3 − 4·⅔) + (1/30)(1 − 2·⅔)]
    //     = 0.1·(−0.025 − 0.025 − 1/180 − 1/90) = 0.1·(−1/15) = −0.0066666…
    // REL − RES + UNC + WBV − WBC = 0.261375 = Brier.
    const d = murphyDecomposition(EXAMPLE);
    expect(d.reliability).toBeCloseTo(0.0675625, 12);
    expect(d.resolution).toBeCloseTo(0.19 / 3, 12);
    expect(d.uncertainty).toBeCloseTo(0.25, 12);
    expect(d.withinBinVariance).toBeCloseTo(0.0115 / 24, 12);
    expect(d.withinBinCovariance).toBeCloseTo(-1 / 150, 12);
    const sum =
      d.reliability - d.resolution + d.uncertainty + d.withinBinVariance - d.withinBinCovariance;
    expect(sum).toBeCloseTo(d.brier, 14);
  });

  it('the parts add up to the Brier score with the other edge convention too', () => {
    const d = murphyDecomposition(EXAMPLE, 10, 'upper-inclusive');
    const sum =
      d.reliability - d.resolution + d.uncertainty + d.withinBinVariance - d.withinBinCovariance;
    expect(sum).toBeCloseTo(0.261375, 14);
  });

  it('ECE, lower-inclusive bins [k/10, (k+1)/10)', () => {
    // (10·|0.925 − 0.6| + 6·|3.1/6 − 4/6| + 4·|0.2 − 0|)/20 = (3.25 + 0.9 + 0.8)/20 = 0.2475
    expect(expectedCalibrationError(EXAMPLE)).toBeCloseTo(0.2475, 12);
  });

  it('ECE, upper-inclusive bins (k/10, (k+1)/10]', () => {
    // 0.9 now falls in (0.8, 0.9], 0.5 in (0.4, 0.5], 0.2 in (0.1, 0.2]; every group alone:
    // (5·|0.9 − 0.8| + 5·|0.95 − 0.4| + 4·|0.5 − 0.75| + 2·|0.55 − 0.5| + 4·0.2)/20
    // = (0.5 + 2.75 + 1.0 + 0.1 + 0.8)/20 = 0.2575
    expect(expectedCalibrationError(EXAMPLE, 10, 'upper-inclusive')).toBeCloseTo(0.2575, 12);
  });

  it('Wilson 95% interval of the 10 advances out of 20', () => {
    // z = 1.959964, z² = 3.841459: centre 0.5, half = z·sqrt(10·10/20 + z²/4)/(20 + z²)
    // = 1.959964·2.441385/23.841459 = 0.200701 → [0.299299, 0.700701]
    const { low, high } = wilsonInterval(10, 20);
    expect(low).toBeCloseTo(0.299299, 5);
    expect(high).toBeCloseTo(0.700701, 5);
  });

  it('confidence levels, most used first', () => {
    expect(confidenceLevels(EXAMPLE)).toEqual([
      { confidence: 0.9, count: 5, successes: 4 },
      { confidence: 0.95, count: 5, successes: 2 },
      { confidence: 0.2, count: 4, successes: 0 },
      { confidence: 0.5, count: 4, successes: 3 },
      { confidence: 0.55, count: 2, successes: 1 },
    ]);
  });
});

describe('binIndex', () => {
  it('puts values on an edge by the convention, including the ones 0.1 × k misses', () => {
    // 0.7 × 10 = 7.000000000000001 and 0.3 × 10 = 3.0000000000000004 in binary floating point.
    expect([0, 0.1, 0.3, 0.7, 0.8, 0.9, 1].map((p) => binIndex(p))).toEqual([0, 1, 3, 7, 8, 9, 9]);
    expect([0, 0.1, 0.3, 0.7, 0.8, 0.9, 1].map((p) => binIndex(p, 10, 'upper-inclusive'))).toEqual([
      0, 0, 2, 6, 7, 8, 9,
    ]);
    expect(binIndex(0.85)).toBe(8);
    expect(binIndex(0.85, 10, 'upper-inclusive')).toBe(8);
  });

  it('refuses a value outside [0, 1]', () => {
    expect(() => binIndex(1.2)).toThrow(RangeError);
    expect(() => binIndex(Number.NaN)).toThrow(RangeError);
  });
});

describe('a forecaster that always says the base rate', () => {
  it('has zero reliability, zero resolution and Brier = uncertainty', () => {
    // 0.25 stated for 8 moves of which 2 advance: Brier = (2·0.75² + 6·0.25²)/8 = 0.1875
    // = 0.25 · 0.75.
    const forecasts = repeat(0.25, 2, 6);
    const d = murphyDecomposition(forecasts);
    expect(d.brier).toBeCloseTo(0.1875, 14);
    expect(d.reliability).toBeCloseTo(0, 14);
    expect(d.resolution).toBeCloseTo(0, 14);
    expect(expectedCalibrationError(forecasts)).toBeCloseTo(0, 14);
  });
});

describe('cluster bootstrap of the ECE', () => {
  it('gives the point estimate and a zero-width interval when every game is the same', () => {
    // Each game: 0.9 stated twice, one advance → ECE 0.4 whatever the resampling.
    const game = tallyBins(repeat(0.9, 1, 1));
    const result = clusterBootstrapEce([game, game, game], { replicates: 200, seed: 1 });
    expect(result?.estimate).toBeCloseTo(0.4, 12);
    expect(result?.low).toBeCloseTo(0.4, 12);
    expect(result?.high).toBeCloseTo(0.4, 12);
  });

  it('covers the estimate, is reproducible by seed and widens with fewer games', () => {
    const games = [0, 1, 2, 3, 4, 5, 6, 7].map((g) => tallyBins(repeat(0.8, g, 8 - g)));
    const a = clusterBootstrapEce(games, { replicates: 1000, seed: 7 });
    const b = clusterBootstrapEce(games, { replicates: 1000, seed: 7 });
    expect(a).toEqual(b);
    // Pooled: 28 of 64 advanced at 0.8 → ECE = 0.8 − 0.4375 = 0.3625.
    expect(a?.estimate).toBeCloseTo(0.3625, 12);
    expect(a?.low).toBeLessThan(0.3625);
    expect(a?.high).toBeGreaterThan(0.3625);
    expect(a?.replicates).toBe(1000);
    // The same four games twice over: same pooled ECE, more games to resample, narrower.
    const four = [0, 2, 4, 6].map((g) => tallyBins(repeat(0.8, g, 8 - g)));
    const fewer = clusterBootstrapEce(four, { replicates: 1000, seed: 7 });
    const more = clusterBootstrapEce([...four, ...four], { replicates: 1000, seed: 7 });
    expect(more?.estimate).toBeCloseTo(fewer?.estimate ?? Number.NaN, 12);
    expect((fewer?.high ?? 0) - (fewer?.low ?? 0)).toBeGreaterThan(
      1.2 * ((more?.high ?? 0) - (more?.low ?? 0)),
    );
  });

  it('contains its estimate when the pooled ECE is 0 (every replicate is above it)', () => {
    // 0.5 stated on every move; games advance 1, 3, 2, 2 of 4 → pooled 8 of 16 = 0.5, ECE 0.
    // Resampled games rarely balance exactly, so almost every replicate has ECE > 0: the plain
    // percentile interval lay above the estimate.
    const games = [1, 3, 2, 2].map((g) => tallyBins(repeat(0.5, g, 4 - g)));
    const r = clusterBootstrapEce(games, { replicates: 1000, seed: 5 });
    expect(r?.estimate).toBe(0);
    expect(r?.low).toBe(0);
    expect(r?.high).toBeGreaterThan(0);
  });

  it('returns null without any forecast', () => {
    expect(clusterBootstrapEce([], { replicates: 10, seed: 1 })).toBeNull();
  });
});

describe('paired bootstrap of an ECE difference', () => {
  it('finds a clear difference and excludes zero', () => {
    // Per seed: player a states 0.95 and advances 2 of 4; player b states 0.5, same outcomes.
    // ECE a = 0.45, b = 0 → difference 0.45 in every replicate.
    const pairs = [0, 1, 2, 3, 4].map(
      () => [tallyBins(repeat(0.95, 2, 2)), tallyBins(repeat(0.5, 2, 2))] as const,
    );
    const d = pairedClusterBootstrapEceDifference(pairs, { replicates: 300, seed: 3 });
    expect(d?.estimate).toBeCloseTo(0.45, 12);
    expect(d?.low).toBeGreaterThan(0);
  });

  it('includes zero for two identical players', () => {
    const pairs = [1, 2, 3, 4, 5].map((g) => {
      const t = tallyBins(repeat(0.7, g, 6 - g));
      return [t, t] as const;
    });
    const d = pairedClusterBootstrapEceDifference(pairs, { replicates: 300, seed: 3 });
    expect(d?.estimate).toBe(0);
    expect(d?.low).toBeLessThanOrEqual(0);
    expect(d?.high).toBeGreaterThanOrEqual(0);
  });
});

describe('quantile (type 7)', () => {
  it('interpolates between order statistics like R quantile()', () => {
    // R: quantile(1:10, c(0.025, 0.975)) → 1.225, 9.775
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(quantile(sorted, 0.025)).toBeCloseTo(1.225, 12);
    expect(quantile(sorted, 0.975)).toBeCloseTo(9.775, 12);
  });
});

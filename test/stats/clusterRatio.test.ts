import { describe, expect, it } from 'vitest';
import {
  clusterBootstrapRate,
  pairedClusterBootstrapRateDifference,
} from '../../src/stats/clusterRatio.js';

describe('cluster bootstrap of a pooled rate', () => {
  it('pools sums over moves, not means of games', () => {
    // Games: 1 of 1, 0 of 3 → pooled 1/4 = 0.25 (the mean of game rates would be 0.5).
    const r = clusterBootstrapRate(
      [
        { sum: 1, count: 1 },
        { sum: 0, count: 3 },
      ],
      { replicates: 500, seed: 1 },
    );
    expect(r?.estimate).toBe(0.25);
    expect(r?.low).toBeLessThanOrEqual(0.25);
    expect(r?.high).toBeGreaterThanOrEqual(0.25);
  });

  it('has zero width when every game has the same rate', () => {
    const game = { sum: 0.6, count: 3 };
    const r = clusterBootstrapRate([game, game, game], { replicates: 200, seed: 2 });
    expect(r?.estimate).toBeCloseTo(0.2, 12);
    expect(r?.low).toBeCloseTo(0.2, 12);
    expect(r?.high).toBeCloseTo(0.2, 12);
  });

  it('returns null without any move', () => {
    expect(clusterBootstrapRate([{ sum: 0, count: 0 }], { replicates: 10, seed: 1 })).toBeNull();
  });
});

describe('paired cluster bootstrap of a rate difference', () => {
  it('cancels what the seeds share: a constant per-seed shift gives a zero-width interval', () => {
    // Each seed: a = b + 0.1 per move, same move counts → every replicate differs by 0.1 exactly,
    // however different the seeds are from each other.
    const pairs = [0.1, 0.3, 0.5, 0.7].map(
      (rate, i) =>
        [
          { sum: (rate + 0.1) * (i + 2), count: i + 2 },
          { sum: rate * (i + 2), count: i + 2 },
        ] as const,
    );
    const d = pairedClusterBootstrapRateDifference(pairs, { replicates: 300, seed: 3 });
    expect(d?.estimate).toBeCloseTo(0.1, 12);
    expect(d?.low).toBeCloseTo(0.1, 12);
    expect(d?.high).toBeCloseTo(0.1, 12);
  });

  it('is reproducible by seed and narrower at a lower level', () => {
    const pairs = [0, 1, 2, 3, 4, 5, 6, 7].map(
      (i) =>
        [
          { sum: i % 3, count: 4 },
          { sum: (i * 7) % 4, count: 4 },
        ] as const,
    );
    const a = pairedClusterBootstrapRateDifference(pairs, { replicates: 800, seed: 9 });
    const b = pairedClusterBootstrapRateDifference(pairs, { replicates: 800, seed: 9 });
    expect(a).toEqual(b);
    const narrow = pairedClusterBootstrapRateDifference(pairs, {
      replicates: 800,
      seed: 9,
      level: 0.5,
    });
    expect((narrow?.high ?? 0) - (narrow?.low ?? 0)).toBeLessThan((a?.high ?? 0) - (a?.low ?? 0));
    expect(a?.low).toBeLessThanOrEqual(a?.estimate ?? Number.NaN);
    expect(a?.high).toBeGreaterThanOrEqual(a?.estimate ?? Number.NaN);
  });
});

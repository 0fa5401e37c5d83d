import { describe, expect, it } from 'vitest';
import { Exclusion, runMethods } from '../../../src/checks/churn/methods.js';
import { createFisherCache } from '../../../src/stats/fisher.js';
import {
  allHalfSplits,
  createSampleMasks,
  type SampleMasks,
} from '../../../src/stats/splitHalf.js';

function masksFrom(patterns: string[]): SampleMasks {
  const samples = (patterns[0] as string).length;
  const masks = createSampleMasks(patterns.length, samples);
  patterns.forEach((pattern, i) => {
    for (let k = 0; k < samples; k++) {
      if (pattern[k] === '.') continue;
      masks.valid[i] = ((masks.valid[i] as number) | (1 << k)) >>> 0;
      if (pattern[k] === '1') masks.correct[i] = ((masks.correct[i] as number) | (1 << k)) >>> 0;
    }
  });
  return masks;
}

describe('method A (RCI) on a hand-computed example', () => {
  // K = 4. Baseline items 1111, 0000, 1110, 1000 → p = 1, 0, .75, .25, r_xx = 0.9 (see
  // test/stats/splitHalf.test.ts). The candidate has the same four patterns on other items
  // (1110, 1000, 1111, 0000 → p = .75, .25, 1, 0), so its r_xx is also 0.9 (r ignores order).
  // No item is at 0 or 1 in both models: all 4 analysable.
  // SD(p) = sqrt(((.5)² + (.5)² + (.25)² + (.25)²)/3) = sqrt(.625/3) = 0.4564354645876384.
  // SEM = SD·sqrt(1 − 0.9) = sqrt(.0208333…) = 0.14433756729740643.
  // S_diff = sqrt(2·.0208333…) = sqrt(1/24) = 0.20412414523193148.
  // RCI = Δp/S_diff = ±0.25·sqrt(24) = ±1.224744871391589 → nothing crosses 1.96.
  // Minimum detectable Δp = 1.96/sqrt(24) = 0.4000833246545857.
  const baseline = masksFrom(['1111', '0000', '1110', '1000']);
  const candidate = masksFrom(['1110', '1000', '1111', '0000']);
  const outcome = runMethods(baseline, candidate, allHalfSplits(4), 0.05, createFisherCache());

  it('computes r_xx, SEM, S_diff and RCI to 1e-9', () => {
    expect(outcome.analysable).toBe(4);
    expect(outcome.reliability[0]).toBeCloseTo(0.9, 9);
    expect(outcome.reliability[1]).toBeCloseTo(0.9, 9);
    expect(outcome.sd[0]).toBeCloseTo(0.4564354645876384, 9);
    expect(outcome.sem[1]).toBeCloseTo(0.14433756729740643, 9);
    expect(outcome.sDiff).toBeCloseTo(0.20412414523193148, 9);
    expect([...outcome.rci]).toEqual([
      expect.closeTo(-1.224744871391589, 9),
      expect.closeTo(1.224744871391589, 9),
      expect.closeTo(1.224744871391589, 9),
      expect.closeTo(-1.224744871391589, 9),
    ]);
    expect([...outcome.rciClass]).toEqual([0, 0, 0, 0]);
  });

  it('runs Fisher + BH on the same items', () => {
    // Item 1: 4/4 vs 3/4 → a=4,b=0,c=3,d=1; rows 4/4, column 7, n = 8, C(8,7) = 8;
    // P(a=3) = C(4,3)C(4,4)/8 = 4/8, P(a=4) = 4/8 → p = 1. Likewise for the other items.
    for (const p of outcome.fisherP) expect(p).toBeCloseTo(1, 12);
    for (const q of outcome.q) expect(q).toBeCloseTo(1, 12);
    expect([...outcome.fisherBhClass]).toEqual([0, 0, 0, 0]);
  });
});

describe('exclusions and method B', () => {
  it('excludes floor, ceiling and items with under 60% valid samples', () => {
    // K = 10: 6 valid samples are enough (60%), 5 are not.
    const baseline = masksFrom([
      '0000000000',
      '1111111111',
      '111111....',
      '11111.....',
      '1111111111',
      '0000000000',
    ]);
    const candidate = masksFrom([
      '0000000000',
      '1111111111',
      '0000000000',
      '0000000000',
      '0000000000',
      '1111111111',
    ]);
    const outcome = runMethods(baseline, candidate, allHalfSplits(10), 0.05, createFisherCache());
    expect([...outcome.exclusion]).toEqual([
      Exclusion.floor,
      Exclusion.ceiling,
      Exclusion.none,
      Exclusion.lowValid,
      Exclusion.none,
      Exclusion.none,
    ]);
    expect(outcome.analysable).toBe(3);
    // Item 3: 6/6 vs 0/10: a=6,b=0,c=0,d=10; rows 6/10, column 6, n = 16; only a = 6 has
    // the observed probability or less on its side: P = 1/C(16,6) = 1/8008; the other tail
    // a = 0 has C(10,6)/8008 = 210/8008 > 1/8008 → p = 1/8008.
    expect(outcome.fisherP[2]).toBeCloseTo(1 / 8008, 12);
    // Items 5 and 6: 10/10 vs 0/10 → p = 2/C(20,10) = 2/184756.
    expect(outcome.fisherP[4]).toBeCloseTo(2 / 184756, 12);
    // BH over 3 p-values: sorted 1/8008, 2/184756, 2/184756 → all tiny, all flagged.
    expect([...outcome.fisherBhClass]).toEqual([0, 0, -1, 0, -1, 1]);
  });
});

import { sampleCorrelation } from 'simple-statistics';
import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/stats/prng.js';
import {
  allHalfSplits,
  countHalfSplits,
  createSampleMasks,
  halfSplits,
  popcount,
  type SampleMasks,
  splitHalfReliability,
} from '../../src/stats/splitHalf.js';

function masksFrom(patterns: string[]): SampleMasks {
  const samples = (patterns[0] as string).length;
  const masks = createSampleMasks(patterns.length, samples);
  patterns.forEach((pattern, i) => {
    for (let k = 0; k < samples; k++) {
      const char = pattern[k];
      if (char === '.') continue;
      const word = i * masks.words + (k >>> 5);
      masks.valid[word] = ((masks.valid[word] as number) | (1 << (k & 31))) >>> 0;
      if (char === '1')
        masks.correct[word] = ((masks.correct[word] as number) | (1 << (k & 31))) >>> 0;
    }
  });
  return masks;
}

describe('half splits', () => {
  it('counts C(K−1, K/2−1) for even K and C(K, ⌊K/2⌋) for odd K', () => {
    expect(countHalfSplits(10)).toBe(126); // C(9,4) = 126 = C(10,5)/2 = 252/2
    expect(countHalfSplits(12)).toBe(462); // C(11,5)
    expect(countHalfSplits(11)).toBe(462); // C(11,5)
    expect(countHalfSplits(13)).toBe(1716); // C(13,6): more than 1000, so random splits
    expect(countHalfSplits(4)).toBe(3);
  });

  it('lists all 126 distinct splits of K = 10, each with index 0 in half A', () => {
    const splits = allHalfSplits(10);
    expect(splits).toHaveLength(126);
    const seen = new Set<number>();
    for (const split of splits) {
      const a = split[0] as number;
      expect(popcount(a)).toBe(5);
      expect(a & 1).toBe(1);
      seen.add(a);
      seen.add(~a & 0x3ff);
    }
    // The halves and their complements are exactly the 252 five-element subsets of 10.
    expect(seen.size).toBe(252);
  });

  it('uses every split when there are at most B, random ones otherwise', () => {
    expect(halfSplits(10, 1000, createRng(42)).exhaustive).toBe(true);
    const random = halfSplits(14, 1000, createRng(42));
    expect(random.exhaustive).toBe(false);
    expect(random.splits).toHaveLength(1000);
    for (const split of random.splits.slice(0, 20)) expect(popcount(split[0] as number)).toBe(7);
  });
});

describe('splitHalfReliability', () => {
  it('matches a hand computation with K = 4 (3 splits)', () => {
    // Items 1111, 0000, 1110, 1000. Splits (half A): {0,1}, {0,2}, {0,3}.
    // {0,1} and {0,2}: A = [1, 0, 1, .5], B = [1, 0, .5, 0]; deviations from .625 / .375:
    //   Σ dA·dB = .5625, Σ dA² = Σ dB² = .6875 → r = 9/11 → 2r/(1+r) = 0.9.
    // {0,3}: A = [1, 0, .5, .5], B = [1, 0, 1, 0]; means .5: Σ dA·dB = .5, Σ dA² = .5,
    //   Σ dB² = 1 → r = 1/√2 → r_xx = 2(√2 − 1) = 0.828427.
    // Median of (0.9, 0.9, 0.828) = 0.9; median r = 9/11.
    const result = splitHalfReliability(
      masksFrom(['1111', '0000', '1110', '1000']),
      allHalfSplits(4),
    );
    expect(result.reliability).toBeCloseTo(0.9, 12);
    expect(result.medianR).toBeCloseTo(9 / 11, 12);
    expect(result.usedSplits).toBe(3);
  });

  it('equals a brute force over all 252 ordered halves of K = 10', () => {
    // Independent computation: every 5-subset as half A (252, each unordered split twice),
    // half accuracies over valid samples, r from simple-statistics, Spearman–Brown, median.
    const rng = createRng(11);
    const patterns = Array.from({ length: 40 }, () => {
      const p = rng.next();
      return Array.from({ length: 10 }, () =>
        rng.next() < 0.05 ? '.' : rng.next() < p ? '1' : '0',
      ).join('');
    });
    const masks = masksFrom(patterns);
    const reliabilities: number[] = [];
    for (let subset = 0; subset < 1024; subset++) {
      if (popcount(subset) !== 5) continue;
      const a: number[] = [];
      const b: number[] = [];
      for (const pattern of patterns) {
        const half = (inA: boolean) => {
          const chars = [...pattern].filter(
            (_, k) => ((subset >> k) & 1) === (inA ? 1 : 0) && pattern[k] !== '.',
          );
          return chars.length === 0 ? null : chars.filter((c) => c === '1').length / chars.length;
        };
        const accA = half(true);
        const accB = half(false);
        if (accA === null || accB === null) continue;
        a.push(accA);
        b.push(accB);
      }
      const r = sampleCorrelation(a, b);
      reliabilities.push((2 * r) / (1 + r));
    }
    expect(reliabilities).toHaveLength(252);
    reliabilities.sort((x, y) => x - y);
    const expected = ((reliabilities[125] as number) + (reliabilities[126] as number)) / 2;
    const result = splitHalfReliability(masks, allHalfSplits(10));
    expect(result.usedSplits).toBe(126);
    expect(result.reliability).toBeCloseTo(expected, 12);
  });

  it('handles more than 32 samples per item', () => {
    // 40 samples: items with 40, 20 and 0 correct in alternating patterns.
    const patterns = ['1'.repeat(40), '10'.repeat(20), '0'.repeat(40), '1100'.repeat(10)];
    const result = splitHalfReliability(
      masksFrom(patterns),
      halfSplits(40, 50, createRng(42)).splits,
    );
    expect(result.reliability).toBeGreaterThan(0.5);
    expect(result.reliability).toBeLessThanOrEqual(1);
  });

  it('sums items grouped by valid pattern as a pass over the items does (K = 15, random splits)', () => {
    // 900 items, 3% of answers invalid: one fully answered group, groups of one missing
    // sample (about 25 items each) and rarer patterns summed item by item.
    const rng = createRng(5);
    const patterns = Array.from({ length: 900 }, () => {
      const p = rng.next();
      return Array.from({ length: 15 }, () =>
        rng.next() < 0.03 ? '.' : rng.next() < p ? '1' : '0',
      ).join('');
    });
    const { splits } = halfSplits(15, 300, createRng(9));
    const rValues = splits.map((split) => {
      const a = split[0] as number;
      const accA: number[] = [];
      const accB: number[] = [];
      for (const pattern of patterns) {
        let ca = 0;
        let va = 0;
        let cb = 0;
        let vb = 0;
        for (let k = 0; k < 15; k++) {
          if (pattern[k] === '.') continue;
          if ((a >> k) & 1) {
            va++;
            if (pattern[k] === '1') ca++;
          } else {
            vb++;
            if (pattern[k] === '1') cb++;
          }
        }
        if (va === 0 || vb === 0) continue;
        accA.push(ca / va);
        accB.push(cb / vb);
      }
      return sampleCorrelation(accA, accB);
    });
    const sorted = rValues.map((r) => (2 * r) / (1 + r)).sort((x, y) => x - y);
    const expected = ((sorted[149] as number) + (sorted[150] as number)) / 2;
    expect(splitHalfReliability(masksFrom(patterns), splits).reliability).toBeCloseTo(expected, 12);
  });
});

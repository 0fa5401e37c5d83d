import { describe, expect, it } from 'vitest';
import { createRng, mixSeed, seedFromText } from '../../src/stats/prng.js';

describe('mixSeed (MurmurHash3 fmix32 of seed + 0x9E3779B9)', () => {
  it('agrees with an independent BigInt implementation, and moves seed 0 away from state 0', () => {
    for (const seed of [0, 1, 2, 42, 0x9e3779b9, 4294967295])
      expect(mixSeed(seed)).toBe(mixSeedReference(seed));
    expect(mixSeed(0)).not.toBe(0);
  });

  it('is a bijection on a sample: no two of 100,000 consecutive seeds collide', () => {
    const seen = new Set<number>();
    for (let s = 0; s < 100_000; s++) seen.add(mixSeed(s));
    expect(seen.size).toBe(100_000);
  });
});

/** An independent BigInt implementation of the same finaliser. */
function mixSeedReference(seed: number): number {
  const mask = (1n << 32n) - 1n;
  let h = (BigInt(seed) + 0x9e3779b9n) & mask;
  h ^= h >> 16n;
  h = (h * 0x85ebca6bn) & mask;
  h ^= h >> 13n;
  h = (h * 0xc2b2ae35n) & mask;
  h ^= h >> 16n;
  return Number(h);
}

/** mulberry32 written again with BigInt arithmetic, from its published description. */
function mulberry32Reference(seed: number, count: number): number[] {
  const mask = (1n << 32n) - 1n;
  const imul = (a: bigint, b: bigint) => (a * b) & mask;
  let state = BigInt(mixSeedReference(seed));
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    state = (state + 0x6d2b79f5n) & mask;
    let t = imul(state ^ (state >> 15n), state | 1n);
    t = (t ^ ((t + imul(t ^ (t >> 7n), t | 61n)) & mask)) & mask;
    out.push(Number((t ^ (t >> 14n)) & mask) / 4294967296);
  }
  return out;
}

describe('createRng (mulberry32)', () => {
  it('agrees with an independent BigInt implementation', () => {
    for (const seed of [0, 1, 42, 123456789, 4294967295]) {
      const rng = createRng(seed);
      const expected = mulberry32Reference(seed, 50);
      for (const value of expected) expect(rng.next()).toBe(value);
    }
  });

  it('replays exactly for the same seed and differs for another', () => {
    const a = createRng(7);
    const b = createRng(7);
    const c = createRng(8);
    const xs = Array.from({ length: 20 }, () => a.next());
    expect(Array.from({ length: 20 }, () => b.next())).toEqual(xs);
    expect(Array.from({ length: 20 }, () => c.next())).not.toEqual(xs);
  });

  it('gives small consecutive seeds well-spread early draws', () => {
    // Without seed mixing, seeds 0, 1 and 6 all drew a second value below 0.004.
    let low = 0;
    for (let seed = 0; seed < 10_000; seed++) {
      const rng = createRng(seed);
      rng.next();
      if (rng.next() < 0.01) low++;
    }
    // Binomial(10000, 0.01): mean 100, sd ≈ 9.95; ±5 sd.
    expect(low).toBeGreaterThan(50);
    expect(low).toBeLessThan(150);
  });

  it('int() is uniform over its range (chi-square, 6 cells, 60,000 draws)', () => {
    const rng = createRng(2024);
    const counts = new Array<number>(6).fill(0);
    for (let i = 0; i < 60_000; i++) counts[rng.int(6)]! += 1;
    const chi = counts.reduce((sum, c) => sum + (c - 10_000) ** 2 / 10_000, 0);
    // 5 degrees of freedom: the 99.9th percentile is 20.52.
    expect(chi).toBeLessThan(20.52);
  });

  it('shuffle keeps the elements and is a permutation', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const shuffled = createRng(3).shuffle([...items]);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(items);
    expect(shuffled).not.toEqual(items);
  });

  it('seedFromText takes the first four bytes of SHA-256, big-endian', () => {
    // SHA-256("abc") = ba7816bf 8f01cfea …
    expect(seedFromText('abc')).toBe(0xba7816bf);
  });
});

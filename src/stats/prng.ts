/**
 * Seeded pseudo-random numbers. Every random choice in model-gate (maze generation,
 * bootstrap, permutation nulls, the simulator's draws) goes through this, so a seed replays
 * exactly on any machine.
 *
 * Generator: mulberry32 (Tommy Ettinger, public domain) — a 32-bit state advanced by adding
 * 0x6D2B79F5, then mixed by two multiply-xorshift rounds. Small, fast, passes the usual
 * statistical batteries for this kind of use, and easy to reimplement from its description:
 *
 *   state = (state + 0x6D2B79F5) mod 2^32
 *   t = imul(state ^ (state >>> 15), state | 1)
 *   t ^= t + imul(t ^ (t >>> 7), t | 61)
 *   output = ((t ^ (t >>> 14)) >>> 0) / 2^32        (a double in [0, 1))
 *
 * mulberry32 alone is poor with small, consecutive seeds (seeds 0, 1 and 6 all give a second
 * output below 0.004), and small seeds are exactly what users write. So the seed first goes
 * through MurmurHash3's 32-bit finaliser, which spreads every input bit over the state; the
 * golden-ratio offset keeps seed 0 (a fixed point of the finaliser) from starting at state 0:
 *
 *   h = (seed + 0x9E3779B9) mod 2^32; h ^= h >>> 16; h = imul(h, 0x85EBCA6B); h ^= h >>> 13;
 *   h = imul(h, 0xC2B2AE35); h ^= h >>> 16;          initial state = h
 */
import { createHash } from 'node:crypto';

export interface Rng {
  /** Uniform double in [0, 1). */
  next(): number;
  /** Uniform integer in [0, maxExclusive). */
  int(maxExclusive: number): number;
  /** Fisher–Yates shuffle in place (from the last index down); returns the same array. */
  shuffle<T>(items: T[]): T[];
}

/** MurmurHash3 fmix32 of the offset seed: a bijection on 32-bit integers with full avalanche. */
export function mixSeed(seed: number): number {
  let h = (seed + 0x9e3779b9) >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

export function createRng(seed: number): Rng {
  // Held as a signed 32-bit integer (the same bits): an unsigned value above 2^31 would be
  // a boxed number, allocated anew on every draw.
  let state = mixSeed(seed) | 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), state | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (maxExclusive: number): number => {
    if (!Number.isInteger(maxExclusive) || maxExclusive <= 0) {
      throw new RangeError(`int() needs a positive integer bound, got ${maxExclusive}`);
    }
    return Math.floor(next() * maxExclusive);
  };
  return {
    next,
    int,
    shuffle<T>(items: T[]): T[] {
      for (let i = items.length - 1; i > 0; i--) {
        const j = int(i + 1);
        const held = items[i] as T;
        items[i] = items[j] as T;
        items[j] = held;
      }
      return items;
    },
  };
}

/** A 32-bit seed derived from text (first 4 bytes of its SHA-256, big-endian). */
export function seedFromText(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0);
}

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

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
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

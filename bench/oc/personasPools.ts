/**
 * A second way of writing persona answers for the harness, built apart from
 * personasGenerator.ts: every assistant has one word pool per probe (what it says about that
 * question) beside a pool of common words, and every answer is drawn afresh from them, sample
 * by sample. There is no voice an assistant carries from one probe to the next, so what tells
 * two assistants apart lives probe by probe, and a pair's crossings at one probe move together.
 *
 * Twins are two assistants whose prompts the model answers alike: at similarity 1 they draw
 * from the same pools (one distribution, nothing but chance between them); at similarity s each
 * word of the second twin's pool is the first twin's word with probability s, else its own.
 * Baseline and candidate draw from the same pools, so no setting here is a change, except a
 * merge, which gives two assistants one set of pools on the candidate.
 */
import { Draw } from './personasGenerator.js';

export interface PoolSettings {
  /** Words per answer. */
  answerWords: number;
  /** Words in each assistant's pool for one probe. */
  poolWords: number;
  /** Words shared by every answer. */
  commonWords: number;
  /** Chance that a word comes from the assistant's pool for the probe (the rest is common). */
  poolShare: number;
  /** Pool share of each assistant where it differs from poolShare (weakly distinct ones). */
  poolShares?: readonly number[];
  /** Share of the second twin's pool words taken from the first twin's (1: one distribution). */
  twinSimilarity: number;
}

/** Calibrated so that 5 distinct assistants × 8 probes × 4 samples reach accuracy ≈ 0.6. */
export const DEFAULT_POOLS: PoolSettings = {
  answerWords: 60,
  poolWords: 12,
  commonWords: 120,
  poolShare: 0.09,
  twinSimilarity: 1,
};

/** The pools of one run: per assistant slot and probe, and the commons. */
export interface Pools {
  /** pools[slot][probe]: the words a slot's answers to that probe draw from. */
  pools: string[][][];
  common: string[];
}

const CONSONANTS = 'bdfgklmnprstvz';
const VOWELS = 'aeiou';

/** A made-up word of letters only, at least five long, unique per number. */
function madeUp(stem: string, n: number): string {
  let text = stem;
  let rest = n;
  do {
    text += `${VOWELS[rest % VOWELS.length]}${CONSONANTS[Math.floor(rest / VOWELS.length) % CONSONANTS.length]}`;
    rest = Math.floor(rest / (VOWELS.length * CONSONANTS.length));
  } while (rest > 0);
  return `${text}a`;
}

/**
 * Fresh pools for `slots` answer distributions. `twins` names the two slots that are twins:
 * the second's pools copy the first's words with probability twinSimilarity.
 */
export function drawPools(
  slots: number,
  probes: number,
  settings: PoolSettings,
  draw: Draw,
  twins: readonly [number, number] | null,
): Pools {
  const offset = draw.below(500) * 50_000;
  let next = 0;
  const fresh = (stem: string) => madeUp(stem, offset + next++);
  const pools = Array.from({ length: slots }, () =>
    Array.from({ length: probes }, () =>
      Array.from({ length: settings.poolWords }, () => fresh('pl')),
    ),
  );
  if (twins) {
    const [first, second] = twins;
    for (let p = 0; p < probes; p++) {
      const from = pools[first]?.[p] ?? [];
      const to = pools[second]?.[p] ?? [];
      for (let i = 0; i < to.length; i++) {
        if (draw.next() < settings.twinSimilarity) to[i] = from[i] ?? to[i] ?? '';
      }
    }
  }
  return { pools, common: Array.from({ length: settings.commonWords }, () => fresh('cm')) };
}

/** One answer of the slot to the probe: a fresh draw of words, nothing kept between samples. */
export function poolAnswer(
  pools: Pools,
  slot: number,
  probe: number,
  settings: PoolSettings,
  draw: Draw,
  /** Pool share of this answer's assistant (its own where it differs from the default). */
  share: number,
): string {
  const own = pools.pools[slot]?.[probe] ?? [];
  const words: string[] = [];
  for (let i = 0; i < settings.answerWords; i++) {
    const pool = draw.next() < share ? own : pools.common;
    words.push(pool[draw.below(pool.length)] ?? 'nothing');
  }
  return `${words.join(' ')}.`;
}

export { Draw };

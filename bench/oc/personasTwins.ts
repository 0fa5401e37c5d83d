/**
 * A third way of writing persona answers, for the look-alike null family: no common words at
 * all. Each probe has a pool of topic words (what any assistant says about that question);
 * each assistant's pool for the probe holds `poolWords` words, each its own with probability
 * `distinct` (its `weakDistinct` for the weakly distinct ones) and otherwise a topic word. An
 * answer is `answerWords` words drawn with replacement from the assistant's pool for the
 * probe, afresh for every sample, so nothing ties two answers together beyond their pools.
 *
 * Twins (slots 0 and 1) are two assistants the model answers alike: at similarity 1 the second
 * twin's pools are the first's (one distribution); at similarity s each of its words is the
 * first twin's with probability s. Slots 2 and 3 are the weakly distinct ones; further slots
 * are distinct at `distinct`. Both models draw from one set of pools unless `perModel`, where
 * each model draws its own from the same settings (same structure, other words). Small pools
 * and short answers make every count coarse, the setting where a pair's crossing share moves
 * most from one sample of answers to the next.
 */
import type { Draw } from './personasGenerator.js';

export interface TwinSettings {
  answerWords: number;
  poolWords: number;
  /** Topic words of each probe, shared by every assistant's pool for it. */
  topicWords: number;
  /** Share of an assistant's pool words that are its own (the twins and any distinct slot). */
  distinct: number;
  /** The same share for slots 2 and 3, the weakly distinct ones. */
  weakDistinct: number;
  twinSimilarity: number;
  /** Each model draws pools of its own from these settings. */
  perModel?: boolean;
}

export const DEFAULT_TWINS: TwinSettings = {
  answerWords: 12,
  poolWords: 8,
  topicWords: 10,
  distinct: 0.5,
  weakDistinct: 0.25,
  twinSimilarity: 1,
};

/** twinPools[slot][probe]: the words a slot's answers to the probe draw from. */
export type TwinPools = string[][][];

const LETTERS = 'bcdfghjklmnpqrstvwxz';

/** A letters-only word, unique per number, that no stop-word list holds (it starts with "qy"). */
function word(n: number): string {
  let text = 'qy';
  let rest = n;
  do {
    text += `${LETTERS[rest % LETTERS.length]}o`;
    rest = Math.floor(rest / LETTERS.length);
  } while (rest > 0);
  return text;
}

export function drawTwinPools(
  slots: number,
  probes: number,
  settings: TwinSettings,
  draw: Draw,
): TwinPools {
  // A fresh numbering per call keeps the words of two models' own pools apart.
  let next = draw.below(1000) * 100_000;
  const fresh = () => word(next++);
  const share = (slot: number) =>
    slot === 2 || slot === 3 ? settings.weakDistinct : settings.distinct;
  const pools: TwinPools = Array.from({ length: slots }, () => []);
  for (let p = 0; p < probes; p++) {
    const topic = Array.from({ length: settings.topicWords }, fresh);
    for (let slot = 0; slot < slots; slot++) {
      const pool = Array.from({ length: settings.poolWords }, () =>
        draw.next() < share(slot) ? fresh() : (topic[draw.below(topic.length)] ?? ''),
      );
      pools[slot]?.push(pool);
    }
    const first = pools[0]?.[p] ?? [];
    const second = pools[1]?.[p] ?? [];
    for (let i = 0; i < second.length; i++) {
      if (draw.next() < settings.twinSimilarity) second[i] = first[i] ?? '';
    }
  }
  return pools;
}

export function twinAnswer(
  pools: TwinPools,
  slot: number,
  probe: number,
  settings: TwinSettings,
  draw: Draw,
): string {
  const pool = pools[slot]?.[probe] ?? [];
  const words = Array.from({ length: settings.answerWords }, () => pool[draw.below(pool.length)]);
  return `${words.join(' ')}.`;
}

/**
 * Answers of assistants whose truth is known, written without any of the analysis code: each
 * answer is a bag of made-up words drawn from three pools — the assistant's own vocabulary
 * (its "voice"), the probe's vocabulary (what the question calls for, whoever answers) and a
 * common vocabulary every answer uses. Two assistants given the same voice answer from one
 * distribution: nothing but chance tells them apart.
 *
 * Words are runs of letters only (the analysis reads letters), at least four long, and never
 * English or French function words, so every drawn word is counted.
 */

/**
 * Seeded generator independent of src/stats/prng.ts: Marsaglia's 32-bit xorshift128
 * (shifts 11, 19, 8; Marsaglia 2003, "Xorshift RNGs"), its four words filled from the seed by
 * a Weyl sequence passed through an integer hash. (A 64-bit generator's shifts on 32-bit words
 * gave draws correlated over short stretches: answers written one after the other resembled
 * each other, which made the two models' answers non-exchangeable.)
 */
export class Draw {
  private x: number;
  private y: number;
  private z: number;
  private w: number;
  constructor(seed: number) {
    let h = seed >>> 0;
    const word = (): number => {
      h = (h + 0x9e3779b9) >>> 0;
      let t = h;
      t = Math.imul(t ^ (t >>> 16), 0x21f0aaad);
      t = Math.imul(t ^ (t >>> 15), 0x735a2d97);
      return (t ^ (t >>> 15)) >>> 0 || 1;
    };
    this.x = word();
    this.y = word();
    this.z = word();
    this.w = word();
  }
  /** Uniform in [0, 1). */
  next(): number {
    const t = (this.x ^ (this.x << 11)) >>> 0;
    this.x = this.y;
    this.y = this.z;
    this.z = this.w;
    this.w = (this.w ^ (this.w >>> 19) ^ (t ^ (t >>> 8))) >>> 0;
    return this.w / 4294967296;
  }
  below(n: number): number {
    return Math.floor(this.next() * n);
  }
}

export interface VoiceSettings {
  /** Words per answer. */
  answerWords: number;
  /** Words in each voice's own vocabulary. */
  ownWords: number;
  /** Words in each probe's vocabulary. */
  probeWords: number;
  /** Words shared by every answer. */
  commonWords: number;
  /** Chance that a word comes from the assistant's voice. */
  ownShare: number;
  /** Chance that a word comes from the probe's vocabulary (the rest is common). */
  probeShare: number;
}

/** Calibrated so that 5 distinct assistants × 8 probes × 4 samples reach accuracy ≈ 0.6. */
export const DEFAULT_VOICES: VoiceSettings = {
  answerWords: 60,
  ownWords: 40,
  probeWords: 15,
  commonWords: 80,
  ownShare: 0.09,
  probeShare: 0.25,
};

const LETTERS = 'bcdfghjklmnpqrstvwxz';
const VOWELS = 'aeiou';

/** A pronounceable made-up word: prefix + syllables from the index (always ≥ 4 letters). */
function word(prefix: string, index: number): string {
  let text = prefix;
  let rest = index;
  do {
    text += `${LETTERS[rest % LETTERS.length]}${VOWELS[Math.floor(rest / LETTERS.length) % VOWELS.length]}`;
    rest = Math.floor(rest / (LETTERS.length * VOWELS.length));
  } while (rest > 0);
  return `${text}${LETTERS[index % 7]}`;
}

/** The vocabularies of one run: fresh made-up words for every voice, probe and the commons. */
export interface Vocabularies {
  voices: string[][];
  probes: string[][];
  common: string[];
}

export function vocabularies(
  voiceCount: number,
  probeCount: number,
  settings: VoiceSettings,
  draw: Draw,
): Vocabularies {
  // A fresh offset per run, so two runs never share words by construction.
  const base = draw.below(1000) * 100_000;
  const pool = (prefix: string, size: number, offset: number): string[] =>
    Array.from({ length: size }, (_, i) => word(prefix, base + offset + i));
  return {
    voices: Array.from({ length: voiceCount }, (_, v) =>
      pool('vo', settings.ownWords, v * settings.ownWords),
    ),
    probes: Array.from({ length: probeCount }, (_, p) =>
      pool('pr', settings.probeWords, p * settings.probeWords),
    ),
    common: pool('co', settings.commonWords, 0),
  };
}

/** One answer: `answerWords` words, each from the voice, the probe or the commons. */
export function answer(
  words: Vocabularies,
  voice: number,
  probe: number,
  settings: VoiceSettings,
  draw: Draw,
): string {
  const own = words.voices[voice] ?? [];
  const asked = words.probes[probe] ?? [];
  const out: string[] = [];
  for (let i = 0; i < settings.answerWords; i++) {
    const u = draw.next();
    const pool =
      u < settings.ownShare
        ? own
        : u < settings.ownShare + settings.probeShare
          ? asked
          : words.common;
    out.push(pool[draw.below(pool.length)] ?? 'nothing');
  }
  return `${out.join(' ')}.`;
}

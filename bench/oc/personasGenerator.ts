/**
 * Answers of assistants whose truth is known, written without any of the analysis code: each
 * answer is a bag of made-up words drawn from three pools — the assistant's own vocabulary
 * (its "voice"), the probe's vocabulary (what the question calls for, whoever answers) and a
 * common vocabulary every answer uses. Two assistants given the same voice answer from one
 * distribution: nothing but chance tells them apart.
 *
 * Words are runs of letters only (the analysis reads letters), at least four long, and never
 * English or French function words, so every drawn word is counted. Two other ways of writing
 * test that a rule does not depend on the texts' shape: sentences (a few favourite words of
 * each pool come up far more often, answers vary in length, English function words between
 * them), and answers to one prompt that resemble each other (a share of each answer copied
 * from a draft the assistant "means" for the probe, as at a low temperature). Baseline and
 * candidate always draw from the same distributions, so no setting here is a change.
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
  /** Own share of each voice where it differs from ownShare (weakly distinct assistants). */
  ownShares?: readonly number[];
  /** `words`: a bag of words (default); `sentences`: skewed choices, lengths and function words. */
  style?: 'words' | 'sentences';
  /**
   * Share of an answer's words copied from the draft of its voice and probe (one draft per
   * run, the same for both models): answers to one prompt resemble each other. Default 0.
   */
  alike?: number;
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

/** One draft per voice and probe, drawn once per run: what an assistant "means" for a probe. */
export type Drafts = string[][][];

export function drafts(words: Vocabularies, settings: VoiceSettings, draw: Draw): Drafts {
  if (!settings.alike) return [];
  return words.voices.map((_, voice) =>
    words.probes.map((_, probe) => contentWords(words, voice, probe, settings, draw)),
  );
}

/**
 * One answer: words from the voice, the probe or the commons (a share of them copied from the
 * voice's draft for the probe when `alike` is set), written in the settings' style.
 */
export function answer(
  words: Vocabularies,
  voice: number,
  probe: number,
  settings: VoiceSettings,
  draw: Draw,
  draftsOfRun: Drafts = [],
): string {
  const fresh = contentWords(words, voice, probe, settings, draw);
  const draft = draftsOfRun[voice]?.[probe];
  const alike = settings.alike ?? 0;
  const chosen = draft ? fresh.map((w, i) => (draw.next() < alike ? (draft[i] ?? w) : w)) : fresh;
  return settings.style === 'sentences' ? sentences(chosen, draw) : `${chosen.join(' ')}.`;
}

function contentWords(
  words: Vocabularies,
  voice: number,
  probe: number,
  settings: VoiceSettings,
  draw: Draw,
): string[] {
  const own = words.voices[voice] ?? [];
  const asked = words.probes[probe] ?? [];
  const ownShare = settings.ownShares?.[voice] ?? settings.ownShare;
  const skewed = settings.style === 'sentences';
  // Sentences: 40 to 90 counted words around the set length; a bag of words: exactly it.
  const count = skewed
    ? Math.max(10, Math.round(settings.answerWords * (0.66 + 0.84 * draw.next())))
    : settings.answerWords;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const u = draw.next();
    const pool = u < ownShare ? own : u < ownShare + settings.probeShare ? asked : words.common;
    // Skewed: the first words of a pool come up far more often, as a few words dominate a voice.
    const r = draw.next();
    out.push(pool[Math.floor((skewed ? r * r : r) * pool.length)] ?? 'nothing');
  }
  return out;
}

/** English function words (all on the stop list): they separate words, never an assistant. */
const FUNCTION_WORDS = ['the', 'and', 'you', 'with', 'this', 'that', 'your', 'for', 'can', 'when'];

function sentences(words: readonly string[], draw: Draw): string {
  const out: string[] = [];
  let sentence: string[] = [];
  let length = 6 + draw.below(9);
  for (const word of words) {
    sentence.push(word);
    if (draw.next() < 0.4)
      sentence.push(FUNCTION_WORDS[draw.below(FUNCTION_WORDS.length)] ?? 'the');
    if (sentence.length >= length) {
      out.push(`${capitalised(sentence.join(' '))}.`);
      sentence = [];
      length = 6 + draw.below(9);
    }
  }
  if (sentence.length > 0) out.push(`${capitalised(sentence.join(' '))}.`);
  return out.join(' ');
}

function capitalised(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

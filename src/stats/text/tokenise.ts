/**
 * Words as the persona analysis counts them: lower-case runs of letters (accented letters
 * included, so "écriture" is one word), without the short words (≤ 2 letters) and the stop
 * words that every answer shares whoever wrote it.
 */

/** A run of letters, any script; apostrophes and digits split words ("l'intrigue" → "intrigue"). */
const WORD = /\p{L}+/gu;

/** Tokens of at most this many letters carry no signal (articles, pronouns, "is", "de"). */
export const MAX_DROPPED_LENGTH = 2;

export function tokenise(text: string, stopWords: ReadonlySet<string>): string[] {
  // NFC first: "e" + combining accent and "é" must be the same word.
  const words = text.normalize('NFC').toLowerCase().match(WORD) ?? [];
  return words.filter((word) => letterCount(word) > MAX_DROPPED_LENGTH && !stopWords.has(word));
}

/** The distinct words of a text. */
export function vocabulary(text: string, stopWords: ReadonlySet<string>): Set<string> {
  return new Set(tokenise(text, stopWords));
}

function letterCount(word: string): number {
  // Count code points, not UTF-16 units, so letters outside the BMP count once.
  let count = 0;
  for (const _ of word) count++;
  return count;
}

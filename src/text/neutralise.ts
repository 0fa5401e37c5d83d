/**
 * Text that comes from outside — a server's error body or version, model names, digests, item
 * ids and domains, catalogue names, model answers — is shown in a terminal, in markdown that
 * GitHub renders, in SVG files and in the action log. None of those may receive a character
 * that acts instead of printing: C0/C1 controls (ANSI escape sequences, BEL, backspace, a
 * carriage return that overwrites a line), bidirectional overrides and isolates that reorder
 * what is read, invisible format characters that make two ids look alike, lone surrogates.
 * Each is shown as a visible `\uXXXX` escape, which is also a valid JSON string escape, so a
 * JSON document passed through `neutraliseLines` still parses to the same values.
 *
 * No imports: every stage (runner, report, cli, github) may use this module.
 */

/**
 * Characters that never print as themselves: controls (Cc), format characters (Cf: bidi
 * marks, embeddings, overrides and isolates, zero-width space and word joiner, the BOM, tag
 * characters), lone surrogates (Cs) and the Unicode line and paragraph separators. The zero
 * width joiner and non-joiner are kept: they shape emoji and several scripts, and act on
 * nothing but the glyphs around them.
 */
const UNSAFE = /(?![\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

/** Breaks a single-line field shows as a space: a field must not start a line of its own. */
const LINE_BREAKS = /\r\n|[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * What the markdown escapes insert themselves (a zero-width space or joiner after `@`, `#`,
 * `:` so GitHub does not act on mentions, references or autolinks); a document pass keeps
 * them, and keeps newlines and tabs.
 */
const DOCUMENT_SAFE = new Set(['\n', '\t', '\u200b', '\u200c', '\u200d']);

/** Default cap of one field, in characters of the result. */
export const FIELD_LIMIT = 300;

function escapeCharacter(ch: string): string {
  let out = '';
  // Code units: an astral character (a tag character) becomes its surrogate pair, as in JSON.
  for (let i = 0; i < ch.length; i++) {
    out += `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/**
 * One line of outside text made safe to show: line breaks become spaces, every other unsafe
 * character a visible `\uXXXX`, and the result is at most `limit` characters (an ellipsis
 * ends a shortened one). Only the start of a very long text is read.
 */
export function neutralise(text: string, limit: number = FIELD_LIMIT): string {
  const max = Math.max(1, Math.floor(limit));
  // Each character becomes at most 12 characters (an escaped surrogate pair), so this much
  // of the input is enough to fill the limit.
  const head = text.length > max + 2 ? text.slice(0, max + 2) : text;
  const shown = head.replace(LINE_BREAKS, ' ').replace(UNSAFE, escapeCharacter);
  if (shown.length <= max && head.length === text.length) return shown;
  return cut(shown, max - 1);
}

/** The first `max` characters, never half of a surrogate pair or of an escape, then "…". */
function cut(text: string, max: number): string {
  let end = Math.min(max, text.length);
  const escapeStart = text.lastIndexOf('\\u', end);
  // An escape cut in the middle would read as a different character.
  if (escapeStart >= 0 && escapeStart > end - 6 && /^\\u[0-9A-F]{4}/.test(text.slice(escapeStart)))
    end = escapeStart;
  const code = text.charCodeAt(end - 1);
  if (code >= 0xd800 && code <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}

/**
 * A whole document (a rendered summary, a terminal message, JSON) made safe without changing
 * its layout: newlines and tabs stay, as do the invisible characters the markdown escapes
 * insert on purpose; every other unsafe character becomes a visible `\uXXXX`. Nothing is cut.
 */
export function neutraliseLines(text: string): string {
  return text.replace(UNSAFE, (ch) => (DOCUMENT_SAFE.has(ch) ? ch : escapeCharacter(ch)));
}

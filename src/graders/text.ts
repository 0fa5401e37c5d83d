/**
 * The text rules the graders share: how an answer is normalised before it is compared, how a
 * value is shown in a reading, and a canonical JSON for hashing and comparing values.
 */

export interface NormaliseOptions {
  keepCase: boolean;
  keepPunctuation: boolean;
}

/** Unicode NFC, trimmed, one final full stop removed, lower-cased (unless kept). */
export function normaliseAnswer(text: string, options: NormaliseOptions): string {
  let out = text.normalize('NFC').trim();
  if (!options.keepPunctuation && out.endsWith('.')) out = out.slice(0, -1).trimEnd();
  return options.keepCase ? out : out.toLowerCase();
}

/** Wrapping a model often puts around a one-word answer: quotes, backticks, bold, brackets. */
const QUOTES = ['"', "'", '`', '*', '_', '\u201c', '\u201d', '\u2018', '\u2019'];
const OPENERS = new Set([...QUOTES, '[', '(']);
const CLOSERS = new Set([...QUOTES, ']', ')']);

/**
 * The text without its leading run of openers and its trailing run of closers. Two index
 * scans, linear in the text: a regular expression anchored at the end (`[…]+$`) retries from
 * every position of a long run of closers followed by another character, quadratic there.
 */
function unwrap(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && OPENERS.has(text.charAt(start))) start++;
  while (end > start && CLOSERS.has(text.charAt(end - 1))) end--;
  return text.slice(start, end);
}

/** A label answer: normalised, its wrapping removed, inner spaces collapsed. */
export function normaliseLabel(text: string): string {
  let out = normaliseAnswer(text, { keepCase: false, keepPunctuation: false });
  out = unwrap(out).trim();
  if (out.endsWith('.')) out = out.slice(0, -1).trimEnd();
  return out.replace(/\s+/g, ' ');
}

/** Longest text a reading quotes from an answer. */
const READING_LIMIT = 80;

/** A piece of an answer, one line, cut to the reading limit; JSON-quoted so its ends show. */
export function quoted(text: string, limit = READING_LIMIT): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(line.length > limit ? `${line.slice(0, limit - 1)}…` : line);
}

/** JSON with object keys sorted at every level: equal values give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/** A value a grader option names as text: a string, or a number or boolean written as one. */
export function asText(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  return null;
}

/** The text with its first letter upper-cased, three times in ten (a scripted model's answer). */
export function capitalised(text: string, rng: { next(): number }): string {
  return rng.next() < 0.3 ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}

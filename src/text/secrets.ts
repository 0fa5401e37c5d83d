/**
 * Secrets the process holds — the GitHub token, the API key named by `provider.api-key-env`,
 * credentials and token-like query values of a server URL — must never reach anything written
 * or printed: the terminal, the action log, report.json, summary.md, the sample log, the cache,
 * the pull-request comment. A server or proxy that echoes its request in an error body would
 * otherwise hand the key to every one of them. Each secret is registered here when it is read;
 * every sink scrubs what it writes with `scrubSecrets`, and a listener (the Actions masker,
 * `core.setSecret`) hears of each secret as it is registered.
 *
 * A secret is also found where it was escaped on its way: backslashes before punctuation and
 * zero-width characters after it (markdown escaping), JSON string escapes, percent-encoding and
 * HTML entities, in any case (a reading lower-cases the answer it quotes). Values under `MIN_SECRET_LENGTH` characters are not scrubbed: so short a value
 * cannot be told from ordinary text.
 *
 * No imports: every stage may use this module.
 */

/** Shown in place of a secret, as the Actions runner shows a masked value. */
export const MASK = '***';

export const MIN_SECRET_LENGTH = 4;

const secrets = new Set<string>();
const listeners = new Set<(secret: string) => void>();
let pattern: RegExp | null = null;

/**
 * Registers `value` (trimmed) as a secret; empty or short values are ignored. Each line of a
 * multi-line value (a PEM key) is a secret of its own too: logs are read, and masked by the
 * runner, a line at a time, and a server may echo one line of it.
 */
export function registerSecret(value: string | null | undefined): void {
  const secret = value?.trim() ?? '';
  add(secret);
  if (/[\r\n]/.test(secret)) for (const line of secret.split(/\r\n|\r|\n/)) add(line.trim());
}

function add(secret: string): void {
  if (secret.length < MIN_SECRET_LENGTH || secrets.has(secret)) return;
  secrets.add(secret);
  pattern = null;
  for (const listener of listeners) listener(secret);
}

/**
 * Calls `listener` with every secret registered from now on, and with those already known.
 * Returns a function that removes it.
 */
export function onSecret(listener: (secret: string) => void): () => void {
  listeners.add(listener);
  for (const secret of secrets) listener(secret);
  return () => listeners.delete(listener);
}

/** Forgets every secret and listener: for tests, which run many jobs in one process. */
export function forgetSecrets(): void {
  secrets.clear();
  listeners.clear();
  pattern = null;
}

/** `text` with every registered secret, in any of its escaped spellings, replaced by `***`. */
export function scrubSecrets(text: string): string {
  if (secrets.size === 0 || text.length < MIN_SECRET_LENGTH) return text;
  pattern ??= compile();
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, MASK) : text;
}

/**
 * A copy of `value` (data for JSON: objects, arrays, strings, numbers; a `toJSON` is applied
 * as JSON.stringify applies it) with every string scrubbed; `value` itself when no secret is
 * registered.
 */
export function scrubData<T>(value: T): T {
  if (secrets.size === 0) return value;
  return scrubInside(value) as T;
}

function scrubInside(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecrets(value);
  if (Array.isArray(value)) return value.map(scrubInside);
  if (value !== null && typeof value === 'object') {
    // What JSON.stringify would write: a Date as its string, a record class by its toJSON.
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === 'function') return scrubInside(toJSON.call(value));
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) out[scrubSecrets(key)] = scrubInside(inner);
    return out;
  }
  return value;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;
const ZERO_WIDTH = '[\\u200b\\u200c\\u200d]?';

function literal(text: string): string {
  return text.replace(REGEX_SPECIAL, '\\$&');
}

/** The secret as markdown escaping may leave it: `\` before punctuation, zero-width after. */
function markdownSpelling(secret: string): string {
  let out = '';
  for (const ch of secret) {
    out += `${ASCII_PUNCTUATION.test(ch) ? '\\\\?' : ''}${literal(ch)}${ZERO_WIDTH}`;
  }
  return out;
}

function htmlSpelling(secret: string): string {
  return secret
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

function compile(): RegExp {
  const spellings = new Set<string>();
  for (const secret of secrets) {
    spellings.add(markdownSpelling(secret));
    spellings.add(literal(JSON.stringify(secret).slice(1, -1)));
    spellings.add(literal(encodeURIComponent(secret)));
    spellings.add(literal(htmlSpelling(secret)));
  }
  // Longest first: a secret that contains another is replaced whole.
  const sorted = [...spellings].sort((a, b) => b.length - a.length);
  // Case is ignored: a key that a grader or a server lower-cased is the same key.
  return new RegExp(sorted.join('|'), 'gi');
}

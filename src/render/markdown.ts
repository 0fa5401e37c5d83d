/**
 * Markdown building blocks shared by every summary section. Model output is untrusted: any
 * text that may come from a model or a user file goes through `escapeText` or `codeSpan`.
 */
import { markdownTable } from 'markdown-table';
import { neutralise } from '../text/neutralise.js';

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&$=]/g;
const NEWLINES = /\r\n|\r|\n|\u2028|\u2029/g;
const ZERO_WIDTH_JOINER = '\u200d';
const ZERO_WIDTH_SPACE = '\u200b';
/**
 * Longest text one escape shows: a server version or an error body can be megabytes; the
 * call sites of short fields (versions, digests, names) cap lower.
 */
const TEXT_LIMIT = 2000;

/**
 * Escapes text for inline markdown: no HTML, no links, no emphasis, no table break-out, and
 * nothing GitHub would act on after rendering (see `neutraliseReferences`).
 */
export function escapeText(text: string): string {
  return neutraliseReferences(
    neutralise(text, TEXT_LIMIT).replace(MARKDOWN_SPECIAL, (c) => `\\${c}`),
  );
}

/**
 * Escapes text as `escapeText` does, but shows each occurrence of the given literals (model
 * tags in a finding) as a code span: a tag such as `qwen3:8b` followed by ": " would otherwise
 * get an invisible break after its colon (against emoji codes), which a reader copying the tag
 * would paste along. Code spans need no break: GitHub renders nothing inside them.
 */
export function escapeTextWithCode(text: string, literals: readonly string[]): string {
  return splitOn(text, literals, escapeText, codeSpan);
}

/**
 * The text cut at each occurrence of the literals (longest first where two start together):
 * the pieces between go through `plain`, the literals through `code`.
 */
function splitOn(
  text: string,
  literals: readonly string[],
  plain: (piece: string) => string,
  code: (literal: string) => string,
): string {
  const words = [...new Set(literals.filter((w) => w !== ''))].sort((a, b) => b.length - a.length);
  const parts: string[] = [];
  let rest = text;
  while (rest !== '') {
    let at = -1;
    let word = '';
    for (const w of words) {
      const i = rest.indexOf(w);
      if (i !== -1 && (at === -1 || i < at)) [at, word] = [i, w];
    }
    if (at === -1) break;
    if (at > 0) parts.push(plain(rest.slice(0, at)));
    parts.push(code(word));
    rest = rest.slice(at + word.length);
  }
  if (rest !== '') parts.push(plain(rest));
  return parts.join('');
}

/**
 * Text inside raw HTML (a `<summary>` line), where markdown is not read: a backslash escape
 * would show as a backslash, so the text is escaped as HTML instead.
 */
function escapeHtmlText(text: string): string {
  return neutraliseReferences(htmlEscaped(text));
}

function htmlEscaped(text: string): string {
  return neutralise(text, TEXT_LIMIT)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/**
 * GitHub also acts on plain text after rendering, so an invisible character is inserted
 * where it would: after `@` (mentions notify people), after `#` before a digit (issue
 * references add events to other issues), after a `:` that starts `//` or an emoji code
 * (a model tag such as `qwen2.5:7b` stays copyable) and inside `www.` (bare-domain autolinks).
 */
function neutraliseReferences(text: string): string {
  return text
    .replace(/@/g, `@${ZERO_WIDTH_JOINER}`)
    .replace(/#(?=\d)/g, `#${ZERO_WIDTH_JOINER}`)
    .replace(/:(?=\/\/|[\w\\+-]+:)/g, `:${ZERO_WIDTH_SPACE}`)
    .replace(/(w)(ww\\?\.)/gi, `$1${ZERO_WIDTH_SPACE}$2`);
}

/**
 * A code span that cannot be broken out of, whatever backticks the text holds. Pipes are
 * escaped because GitHub splits table rows before it reads code spans.
 */
export function codeSpan(text: string): string {
  const clean = neutralise(text, TEXT_LIMIT).replace(/\|/g, '\\|');
  let longest = 0;
  for (const run of clean.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

/** A link only to an http(s) URL; anything else becomes plain escaped text. */
export function link(label: string, url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return escapeText(label);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return escapeText(label);
  // encodeURIComponent leaves parentheses alone, and they would end the link early.
  const target = parsed.href.replace(
    /[()<>\s]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
  );
  return `[${escapeText(label)}](${target})`;
}

/** A link to a file next to the markdown file (charts beside summary.md). */
export function relativeLink(label: string, file: string): string {
  const target = file
    .split('/')
    .map((part) => encodeURIComponent(part))
    .join('/');
  return `[${escapeText(label)}](${target})`;
}

export type Align = 'l' | 'r' | 'c';

/**
 * A GitHub table. Cells are inserted as given (escape untrusted cells first), except that a
 * pipe not already escaped is escaped and newlines become spaces: one row per line, and every
 * row keeps the header's column count whatever a cell holds.
 */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly Align[],
): string {
  const width = header.length;
  const toWidth = (row: readonly string[]) =>
    Array.from({ length: width }, (_, i) => safeCell(row[i] ?? ''));
  const cells = [toWidth(header), ...rows.map(toWidth)];
  // No padding to align the columns: GitHub renders the same table, and the padding of one
  // long cell (a finding, an item's question) repeats down every row of its column.
  return markdownTable(cells, { align: align ? [...align] : undefined, alignDelimiters: false });
}

function safeCell(cell: string): string {
  return cell
    .replace(NEWLINES, ' ')
    .replace(/(\\*)\|/g, (_, slashes: string) =>
      slashes.length % 2 === 0 ? `${slashes}\\|` : `${slashes}|`,
    );
}

/**
 * A collapsed block. The summary line is raw HTML, where GitHub reads no markdown: pass it
 * plain (unescaped) text; it is escaped as HTML here, and each `code` literal in it (a model
 * tag) is shown as `<code>`, which needs no invisible break.
 */
export function details(summaryLine: string, body: string, code: readonly string[] = []): string {
  const line = splitOn(summaryLine, code, escapeHtmlText, htmlCode);
  return `<details><summary>${line}</summary>\n\n${body}\n\n</details>`;
}

/** A literal inside raw HTML as `<code>`: GitHub acts on nothing inside it (mentions, emoji). */
function htmlCode(literal: string): string {
  return `<code>${htmlEscaped(literal)}</code>`;
}

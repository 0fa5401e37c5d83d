/**
 * Fits summary.md to a size limit by cutting its long lists, never its sections. GitHub caps
 * a step's job summary at 1 MiB and a comment at 65,536 characters; what grows with a suite
 * is its lists (changed items, domains, games, assistant pairs), while the verdict, the rules
 * and each check's head stay the same size. So every table and bullet list longer than a few
 * rows keeps its first rows, all lists cut to the same length, the longest length that fits,
 * and says how many rows it left out and where they are (report.html). Sizes are UTF-8 bytes,
 * never fewer than characters, so one measure keeps both limits.
 */
import { FENCE, TABLE_ROW, utf8Size } from './trim.js';

/** GitHub's limit on one step's job summary, and the size summary.md is written within. */
export const SUMMARY_LIMIT = 1024 * 1024;

/** Rows every list keeps however small the limit: fewer says nothing about the list. */
export const MIN_ROWS = 3;

/** Markdown as a caller gives it: written, or rendered for the room left (in bytes). */
export type MarkdownFor = string | ((limit: number) => string);

export function markdownFor(markdown: MarkdownFor, limit: number): string {
  return typeof markdown === 'string' ? markdown : markdown(limit);
}

/** A run of rows that can be cut: the body of a table, or the items of a bullet list. */
interface List {
  /** Index of its first cuttable line, and one past its last. */
  first: number;
  end: number;
  /** What one row is, plural: "items" for a table whose first column is "item". */
  noun: string;
  /** Size of each row's line with its newline. */
  sizes: number[];
  /** Whether a blank line follows it (else the cut line needs one of its own after it). */
  blankAfter: boolean;
}

const DELIMITER_ROW = /^ {0,3}\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;
const BULLET = /^[-*] /;

/** The rows a table's first column names, plural; "rows" when its header is no plain word. */
function nounOf(headerLine: string): string {
  const first = headerLine.split('|').map((cell) => cell.trim())[1] ?? '';
  return /^[a-z]+$/.test(first) ? `${first}s` : 'rows';
}

function listsOf(lines: readonly string[]): List[] {
  const lists: List[] = [];
  let fence: string | null = null;
  const rows = (first: number, end: number, noun: string): List => ({
    first,
    end,
    noun,
    sizes: lines.slice(first, end).map((line) => utf8Size(line) + 1),
    blankAfter: (lines[end] ?? '').trim() === '',
  });
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const opening = FENCE.exec(line)?.[1];
    if (fence !== null) {
      if (opening?.startsWith(fence) && line.trim() === opening) fence = null;
      continue;
    }
    if (opening) {
      fence = opening;
      continue;
    }
    if (TABLE_ROW.test(line) && DELIMITER_ROW.test(lines[i + 1] ?? '')) {
      let end = i + 2;
      while (end < lines.length && TABLE_ROW.test(lines[end] ?? '')) end++;
      if (end - (i + 2) > MIN_ROWS) lists.push(rows(i + 2, end, nounOf(line)));
      i = end - 1;
    } else if (BULLET.test(line)) {
      let end = i + 1;
      while (end < lines.length && BULLET.test(lines[end] ?? '')) end++;
      if (end - i > MIN_ROWS) lists.push(rows(i, end, 'entries'));
      i = end - 1;
    }
  }
  return lists;
}

/** The line that replaces a list's cut rows, after a blank line (a table would absorb it). */
function cutLine(left: number, noun: string, pointer: string): string {
  const count = String(left).replace(/\B(?=(\d{3})+$)/g, ',');
  return `_… and ${count} more ${noun} — see ${pointer}._`;
}

/** Bytes the text takes when every list keeps at most `rows` rows. */
function sizeAt(total: number, lists: readonly List[], rows: number, pointer: string): number {
  let size = total;
  for (const list of lists) {
    if (list.sizes.length <= rows) continue;
    for (let r = rows; r < list.sizes.length; r++) size -= list.sizes[r] ?? 0;
    // A blank line, the cut line, and a blank line after it unless one follows already.
    size += 1 + utf8Size(cutLine(list.sizes.length - rows, list.noun, pointer)) + 1;
    if (!list.blankAfter) size += 1;
  }
  return size;
}

/**
 * `text` unchanged when it fits in `limit` bytes; otherwise with every long list cut to the
 * longest common length that fits (at least MIN_ROWS rows), each cut saying how many rows it
 * left out and pointing at `pointer` (markdown: where the full lists are). The result can
 * still exceed `limit` when even the shortest lists do not fit: the caller's last resort
 * (trimMarkdown) cuts what is left.
 */
export function fitMarkdown(text: string, limit: number, pointer: string): string {
  const total = utf8Size(text);
  if (total <= limit) return text;
  const lines = text.split('\n');
  const lists = listsOf(lines);
  if (lists.length === 0) return text;
  let low = MIN_ROWS;
  let high = Math.max(...lists.map((l) => l.sizes.length));
  // The longest length that fits; sizes grow with it, save the last row's notice, which a
  // check after the search makes up for.
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (sizeAt(total, lists, mid, pointer) <= limit) low = mid;
    else high = mid - 1;
  }
  while (low > MIN_ROWS && sizeAt(total, lists, low, pointer) > limit) low--;
  const out: string[] = [];
  let at = 0;
  for (const list of lists) {
    out.push(...lines.slice(at, list.first));
    const kept = Math.min(low, list.sizes.length);
    out.push(...lines.slice(list.first, list.first + kept));
    if (kept < list.sizes.length) {
      out.push('', cutLine(list.sizes.length - kept, list.noun, pointer));
      if (!list.blankAfter) out.push('');
    }
    at = list.end;
  }
  out.push(...lines.slice(at));
  return out.join('\n');
}

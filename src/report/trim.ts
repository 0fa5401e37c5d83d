/**
 * Cuts markdown to a size limit at a section boundary, for the places GitHub caps: the job
 * summary (1 MiB per step) and a PR comment (65,536 characters). Sizes are counted in UTF-8
 * bytes, never fewer than characters, so one measure keeps both limits.
 */

export function utf8Size(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

interface Boundaries {
  /** Offsets of top-level headings (a new section starts there). */
  sections: number[];
  /** Offsets after a blank line at top level (a new paragraph, table or list starts there). */
  paragraphs: number[];
  /** Offsets of every line start, with what is open there. */
  lines: { offset: number; fence: string | null; openDetails: number }[];
}

/** A code fence's opening (or closing) line, and a table's row: as GitHub reads them. */
export const FENCE = /^ {0,3}(`{3,}|~{3,})/;
export const TABLE_ROW = /^ {0,3}\|/;
const HEADING = /^ {0,3}#{1,6}(\s|$)/;

function boundaries(text: string): Boundaries {
  const result: Boundaries = { sections: [], paragraphs: [], lines: [] };
  let fence: string | null = null;
  let openDetails = 0;
  let offset = 0;
  let previousBlank = false;
  for (const line of text.split('\n')) {
    result.lines.push({ offset, fence, openDetails });
    const topLevel = fence === null && openDetails === 0;
    const fenceMatch = FENCE.exec(line);
    if (topLevel && offset > 0) {
      if (HEADING.test(line) || /^<details>/i.test(line.trim())) result.sections.push(offset);
      else if (previousBlank && line.trim() !== '') result.paragraphs.push(offset);
    }
    if (fence !== null) {
      if (fenceMatch?.[1]?.startsWith(fence) && line.trim() === fenceMatch[1]) fence = null;
    } else if (fenceMatch?.[1]) {
      fence = fenceMatch[1];
    } else {
      openDetails += (line.match(/<details\b/gi) ?? []).length;
      openDetails -= (line.match(/<\/details>/gi) ?? []).length;
      openDetails = Math.max(0, openDetails);
    }
    previousBlank = line.trim() === '';
    offset += line.length + 1;
  }
  return result;
}

/** The lines that close what is open at a cut: a code fence, collapsed blocks. */
function closing(state: { fence: string | null; openDetails: number }): string {
  return (
    (state.fence !== null ? `\n${state.fence}` : '') + '\n</details>'.repeat(state.openDetails)
  );
}

/** The largest candidate whose prefix fits (candidates ascending, sizes grow with them). */
function largestFitting(text: string, candidates: readonly number[], budget: number): number {
  let best = -1;
  let low = 0;
  let high = candidates.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const at = candidates[mid]!;
    if (utf8Size(text.slice(0, at).trimEnd()) <= budget) {
      best = at;
      low = mid + 1;
    } else {
      high = mid - 1;
    }
  }
  return best;
}

/** A top-level collapsed block: `<details>` through its matching `</details>`, whole lines. */
interface Collapsed {
  start: number;
  end: number;
  /** Offset where the body starts: after the `<summary>` line. */
  body: number;
}

const SHRUNK = 'lines cut to fit; the full list is in the full report';

function collapsedBlocks(text: string): Collapsed[] {
  const blocks: Collapsed[] = [];
  const lines = boundaries(text).lines;
  const all = text.split('\n');
  let open: { start: number; body: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const { offset, fence, openDetails } = lines[i]!;
    const line = all[i] ?? '';
    if (fence !== null) continue;
    if (open === null && openDetails === 0 && /^<details>/i.test(line.trim())) {
      open = { start: offset, body: offset + line.length + 1 };
    }
    const next = lines[i + 1];
    if (open !== null && (next?.openDetails ?? 0) === 0 && /<\/details>\s*$/i.test(line)) {
      blocks.push({ ...open, end: offset + line.length });
      open = null;
    }
  }
  return blocks;
}

/**
 * The block cut to about `target` bytes: its summary line, the first lines of its body that
 * fit (a table keeps its header), what was left open closed, and how many lines were cut.
 */
function shrinkBlock(text: string, block: Collapsed, target: number): string {
  const head = text.slice(block.start, block.body);
  const body = text.slice(block.body, block.end).replace(/\n*<\/details>\s*$/i, '');
  const bodyLines = body.split('\n');
  const found = boundaries(body);
  let kept = 0;
  let size = utf8Size(head) + 120;
  while (kept < bodyLines.length && size + utf8Size(bodyLines[kept] ?? '') + 1 <= target) {
    size += utf8Size(bodyLines[kept] ?? '') + 1;
    kept++;
  }
  const state = found.lines[kept] ?? { fence: null, openDetails: 0 };
  const cut = bodyLines.length - kept;
  const keptText = bodyLines.slice(0, kept).join('\n').trimEnd();
  return `${head}${keptText}${closing(state)}\n\n_… ${cut} ${SHRUNK}._\n\n</details>`;
}

/**
 * Long lists live in collapsed blocks (changed items, per-game tables): they shrink first,
 * the largest first, so every section heading and verdict line outside them stays.
 */
function shrinkCollapsed(text: string, budget: number): string {
  let out = text;
  for (let round = 0; round < 64 && utf8Size(out) > budget; round++) {
    const blocks = collapsedBlocks(out)
      .filter((b) => !out.slice(b.start, b.end).includes(SHRUNK))
      .sort((a, b) => utf8Size(out.slice(b.start, b.end)) - utf8Size(out.slice(a.start, a.end)));
    const largest = blocks[0];
    if (!largest) break;
    const size = utf8Size(out.slice(largest.start, largest.end));
    const excess = utf8Size(out) - budget;
    const shrunk = shrinkBlock(out, largest, Math.max(0, size - excess));
    if (utf8Size(shrunk) >= size) break;
    out = out.slice(0, largest.start) + shrunk + out.slice(largest.end);
  }
  return out;
}

/**
 * Returns `text` unchanged when it fits in `limit` bytes. Otherwise collapsed blocks (the long
 * item lists) shrink first, largest first, keeping their first lines; then, if it still does
 * not fit, the longest prefix that ends before a heading (or a collapsed block) and fits
 * together with `notice`, which is appended after a rule. When not even the first section
 * fits, a table the cut falls in keeps the rows that fit (saying how many it left out);
 * otherwise it cuts between paragraphs, then between lines, closing a code fence or collapsed
 * block left open.
 */
export function trimMarkdown(text: string, limit: number, notice: string): string {
  if (utf8Size(text) <= limit) return text;
  const tail = `\n\n---\n\n${notice.trim()}\n`;
  const budget = limit - utf8Size(tail);
  if (budget <= 0) return truncateToBytes(notice.trim(), limit);
  const shrunk = shrinkCollapsed(text, budget);
  if (utf8Size(shrunk) <= budget) return shrunk.trimEnd() + tail;
  return cutPrefix(shrunk, budget, tail);
}

function cutPrefix(text: string, budget: number, tail: string): string {
  const found = boundaries(text);
  const atSection = largestFitting(text, found.sections, budget);
  if (atSection > 0) return text.slice(0, atSection).trimEnd() + tail;
  const inTable = cutInTable(text, found, budget, tail);
  if (inTable !== null) return inTable;
  const atParagraph = largestFitting(text, found.paragraphs, budget);
  if (atParagraph > 0) return text.slice(0, atParagraph).trimEnd() + tail;

  // One huge first block: cut between lines and close what is open at the cut.
  const lineStarts = found.lines.map((l) => l.offset).filter((o) => o > 0);
  // Room for the closing lines: a fence and a few `</details>`.
  const atLine = largestFitting(text, lineStarts, budget - 64);
  if (atLine > 0) {
    const state = found.lines.find((l) => l.offset === atLine)!;
    return text.slice(0, atLine).trimEnd() + closing(state) + tail;
  }
  return truncateToBytes(text, budget) + tail;
}

function rowsLeftOut(count: number): string {
  return `\n\n_… ${count} more ${count === 1 ? 'row' : 'rows'} of this table left out; the full report has every row._`;
}

/**
 * When the cut falls inside a table (the verdict's findings: one row per failed rule), the
 * table keeps its header and the rows that fit, row by row, and says how many it left out:
 * cutting before the whole table would leave the reader a heading and a count. Null when the
 * cut is not inside a top-level table, or not even one row would be kept.
 */
function cutInTable(text: string, found: Boundaries, budget: number, tail: string): string | null {
  const lines = text.split('\n');
  const topLevel = (i: number) =>
    found.lines[i]?.fence === null && found.lines[i]?.openDetails === 0;
  const isRow = (i: number) => topLevel(i) && TABLE_ROW.test(lines[i] ?? '');
  const starts = found.lines.map((l) => l.offset).filter((o) => o > 0);
  const at = largestFitting(text, starts, budget - utf8Size(rowsLeftOut(lines.length)));
  if (at <= 0) return null;
  const next = found.lines.findIndex((l) => l.offset === at);
  if (next < 1 || !isRow(next - 1) || !isRow(next)) return null;
  let first = next - 1;
  while (first > 0 && isRow(first - 1)) first--;
  // The header, its separator and at least one row, or the table says nothing.
  if (next - first < 3) return null;
  let end = next;
  while (isRow(end)) end++;
  return text.slice(0, at).trimEnd() + rowsLeftOut(end - next) + tail;
}

/** A prefix of at most `limit` UTF-8 bytes that does not split a character. */
function truncateToBytes(text: string, limit: number): string {
  let size = 0;
  let end = 0;
  for (const char of text) {
    const next = size + utf8Size(char);
    if (next > limit) break;
    size = next;
    end += char.length;
  }
  return text.slice(0, end);
}

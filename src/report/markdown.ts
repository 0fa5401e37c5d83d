/**
 * Markdown building blocks shared by every summary section. Model output is untrusted: any
 * text that may come from a model or a user file goes through `escapeText` or `codeSpan`.
 */
import { markdownTable } from 'markdown-table';

const MARKDOWN_SPECIAL = /[\\`*_{}[\]()#+\-.!|<>~&]/g;

/**
 * Escapes text for inline markdown: no HTML, no links, no emphasis, no table break-out,
 * no @-mentions (a zero-width joiner after @ keeps GitHub from notifying anyone).
 */
export function escapeText(text: string): string {
  return text
    .replace(/\r?\n|\r/g, ' ')
    .replace(MARKDOWN_SPECIAL, (c) => `\\${c}`)
    .replace(/@/g, '@\u200d')
    .replace(/:/g, ':\u200b');
}

/** A code span that cannot be broken out of, whatever backticks the text holds. */
export function codeSpan(text: string): string {
  const clean = text.replace(/\r?\n|\r/g, ' ').replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(clean.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = clean.startsWith('`') || clean.endsWith('`') || clean === '' ? ' ' : '';
  return `${fence}${pad}${clean}${pad}${fence}`;
}

export type Align = 'l' | 'r' | 'c';

/** A GitHub table. Cells are inserted as given: escape untrusted cells first. */
export function table(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  align?: readonly Align[],
): string {
  const cells = [header, ...rows].map((row) => row.map((cell) => cell.replace(/\r?\n|\r/g, ' ')));
  return markdownTable(cells, { align: align ? [...align] : undefined });
}

/** 0.1234 → "12.3%". */
export function percent(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return `${(value * 100).toFixed(digits)}%`;
}

/** Signed percentage points: 0.028 → "+2.8 pts". */
export function points(value: number | null | undefined, digits = 1): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const v = value * 100;
  return `${v > 0 ? '+' : v < 0 ? '−' : '±'}${Math.abs(v).toFixed(digits)} pts`;
}

/** Fixed digits, "–" for missing values. */
export function num(value: number | null | undefined, digits = 3): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  return value.toFixed(digits);
}

/** "[0.412, 0.533]". */
export function interval(
  low: number | null | undefined,
  high: number | null | undefined,
  format: (v: number) => string = (v) => v.toFixed(3),
): string {
  if (low === null || low === undefined || high === null || high === undefined) return '–';
  return `[${format(low)}, ${format(high)}]`;
}

export function details(summaryLine: string, body: string): string {
  return `<details><summary>${summaryLine}</summary>\n\n${body}\n\n</details>`;
}

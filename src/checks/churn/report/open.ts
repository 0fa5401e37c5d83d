/**
 * The open items' part of the churn summary: which graders graded the answers (and whether the
 * log's answers were graded by another one when they came), and for the flagged items one right
 * and one wrong answer of each model — model text, escaped and shortened.
 */
import { details, escapeText, table } from '../../../render/markdown.js';
import { shorten } from '../../../text/budget.js';
import type { ItemRow, OpenItemsSummary } from '../section.js';

/** Characters of an answer the summary shows. */
const SHOWN = 120;
/** Items whose answers the summary shows. */
const SHOWN_ITEMS = 10;

function shortened(text: string | null): string {
  if (text === null) return '–';
  const line = text.replace(/\s+/g, ' ').trim();
  return line === '' ? '(empty)' : escapeText(shorten(line, SHOWN));
}

export function openItemsLines(open: OpenItemsSummary | undefined): string[] {
  if (!open) return [];
  const graders = open.graders.map((g) => `${g.type} ${g.items}`).join(', ');
  const a = open.answers;
  const regraded =
    a.otherGrader > 0
      ? ` ${a.otherGrader} of the ${a.graded} logged answers had been graded by another grader when they came: graded again now, ${a.changed} changed verdict.`
      : '';
  const offLabel =
    open.offLabel.baseline + (open.offLabel.candidate ?? 0) > 0
      ? ` Answers none of the labels (off-label, counted wrong): baseline ${open.offLabel.baseline}${open.offLabel.candidate === null ? '' : `, candidate ${open.offLabel.candidate}`}.`
      : '';
  return [
    `${open.items} open items, their answers graded from the log by the current graders (${open.graderVersion}): ${graders}.${regraded}${offLabel}`,
    '',
  ];
}

/** The answers behind the flagged open items (gate method first, worst change first). */
export function evidenceBlock(rows: readonly ItemRow[]): string[] {
  const shown = rows
    .filter((r) => r.examples !== undefined)
    .sort((a, b) => (a.delta ?? 0) - (b.delta ?? 0))
    .slice(0, SHOWN_ITEMS);
  if (shown.length === 0) return [];
  const lines = shown.flatMap((r) => {
    const e = r.examples as NonNullable<ItemRow['examples']>;
    const label = `${escapeText(r.id)} (${escapeText(r.grader ?? '')})`;
    return [
      [label, 'baseline', shortened(e.baseline.correct), shortened(e.baseline.wrong)],
      ['', 'candidate', shortened(e.candidate.correct), shortened(e.candidate.wrong)],
    ];
  });
  return [
    details(
      `Answers behind the flagged open items (${shown.length})`,
      table(['item (grader)', 'model', 'a right answer', 'a wrong answer'], lines, [
        'l',
        'l',
        'l',
        'l',
      ]),
    ),
    '',
  ];
}

/** The grader cell of an item row: its description, or – for a multiple-choice item. */
export function graderCell(row: ItemRow): string {
  const offLabel =
    row.offLabel && row.offLabel[0] + row.offLabel[1] > 0
      ? `; off-label ${row.offLabel[0]}→${row.offLabel[1]}`
      : '';
  return row.grader === undefined ? 'choice' : `${escapeText(row.grader)}${offLabel}`;
}

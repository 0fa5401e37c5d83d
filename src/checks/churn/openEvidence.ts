/**
 * What the report says about open items: per item, its grader and, for an item a method
 * flagged, one right and one wrong answer of each model — the evidence behind the flag, cut
 * short and bounded in number so report.json stays small; for the run, the graders used and
 * what re-grading the log found. Pure.
 */
import { GRADERS_VERSION } from '../../graders/types.js';
import { shorten } from '../../text/budget.js';
import type { ChurnItem } from './items.js';
import type { OpenAnswerCounts } from './openGrading.js';
import type { AnswerPair, ItemRow, OpenItemsSummary } from './section.js';
import type { AnswerExamples, ModelTally } from './tally.js';

/** Longest answer text an example keeps, in characters. */
export const EXAMPLE_LIMIT = 300;
/** Most flagged items that carry examples in one report. */
export const MAX_ITEMS_WITH_EXAMPLES = 50;

function pair(examples: AnswerExamples | undefined): AnswerPair {
  const cut = (text: string | null = null) => (text === null ? null : shorten(text, EXAMPLE_LIMIT));
  return { correct: cut(examples?.correct), wrong: cut(examples?.wrong) };
}

/**
 * The open-item fields of item `i`'s row (none for a multiple-choice item). `withExamples`
 * says whether the row carries its answers; `budget.left` counts the rows that still may.
 */
export function openItemFields(
  item: ChurnItem,
  i: number,
  [baseline, candidate]: [ModelTally, ModelTally],
  withExamples: boolean,
  budget: { left: number },
): Pick<ItemRow, 'grader' | 'graderFingerprint' | 'offLabel' | 'examples'> {
  if (item.kind !== 'open') return {};
  const fields: Pick<ItemRow, 'grader' | 'graderFingerprint' | 'offLabel' | 'examples'> = {
    grader: item.grader.description,
    graderFingerprint: item.grader.fingerprint,
  };
  if (item.grader.countsOffLabel) {
    fields.offLabel = [baseline.offLabel[i] as number, candidate.offLabel[i] as number];
  }
  if (withExamples && budget.left > 0) {
    budget.left--;
    fields.examples = {
      baseline: pair(baseline.examples[i]),
      candidate: pair(candidate.examples[i]),
    };
  }
  return fields;
}

function total(counts: Int32Array): number {
  let sum = 0;
  for (const n of counts) sum += n;
  return sum;
}

export function openItemsSummary(
  items: readonly ChurnItem[],
  counts: OpenAnswerCounts,
  baseline: ModelTally,
  candidate: ModelTally | null,
): OpenItemsSummary | undefined {
  const byType = new Map<string, number>();
  for (const item of items) {
    if (item.kind !== 'open') continue;
    byType.set(item.grader.spec.type, (byType.get(item.grader.spec.type) ?? 0) + 1);
  }
  const open = [...byType.values()].reduce((a, b) => a + b, 0);
  if (open === 0) return undefined;
  return {
    items: open,
    graderVersion: GRADERS_VERSION,
    graders: [...byType.entries()]
      .map(([type, n]) => ({ type, items: n }))
      .sort((a, b) => b.items - a.items || a.type.localeCompare(b.type)),
    offLabel: {
      baseline: total(baseline.offLabel),
      candidate: candidate === null ? null : total(candidate.offLabel),
    },
    answers: { ...counts },
  };
}

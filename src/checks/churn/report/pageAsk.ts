/**
 * An item's texts in report.html, within a budget: a multiple-choice item's question and
 * choices; an open item's prompt, system prompt, expected answer and grader. The items the gate
 * flagged keep their texts whole (up to FIELD_LENGTH each); the others share what is left, the
 * longest texts shortened first.
 */

import { graders } from '../../../graders/index.js';
import { lengthCap, shorten } from '../../../text/budget.js';
import { type ChurnItem, isChoiceItem } from '../items.js';
import type { ChurnPageAsk } from '../page/types.js';

/**
 * Characters of item text in the page, all items together: questions and prompts in one
 * budget; choices, system prompts, expected answers and grader options in the other. With the
 * answer counts and examples, a 150,000-request run's page stays under 15 MB (bench/page.ts).
 */
export const QUESTION_BUDGET = 4_000_000;
export const DETAIL_BUDGET = 3_000_000;
export const FIELD_LENGTH = 4_000;

/** How long each kind of text may be. */
export interface TextCaps {
  /** A question or a prompt. */
  question: number;
  /** A choice, a system prompt, an expected answer, one line of a grader's options. */
  detail: number;
}

export const WHOLE: TextCaps = { question: FIELD_LENGTH, detail: FIELD_LENGTH };

/** `expected` as written: a text as it is, any other value as JSON. */
function expectedText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Whether the grader reads labels (its off-label answers are counted apart). */
export function usesLabels(item: ChurnItem): boolean {
  return !isChoiceItem(item) && item.grader.countsOffLabel;
}

/** An item's texts before any cut: its question or prompt, and its other texts. */
export interface ItemTexts {
  question: string;
  details: string[];
}

/** The texts of the item, in the order askOf reads them back (a system prompt is apart). */
export function itemTexts(item: ChurnItem): ItemTexts {
  if (isChoiceItem(item)) return { question: item.question, details: item.choices };
  const expected = expectedText(item.expected);
  return {
    question: item.prompt,
    details: [...(expected === null ? [] : [expected]), ...graders.explain(item.grader.spec)],
  };
}

/**
 * The open items' system prompts, each once: items mostly share one, and the page holds it
 * once (ChurnPage.systems). A system prompt of a flagged item stays whole.
 */
export interface SystemTable {
  texts: string[];
  flagged: boolean[];
  index: Map<string, number>;
}

export function systemTable(
  items: readonly ChurnItem[],
  flagged: ReadonlySet<string>,
): SystemTable {
  const table: SystemTable = { texts: [], flagged: [], index: new Map() };
  for (const item of items) {
    if (isChoiceItem(item) || item.system === null) continue;
    let at = table.index.get(item.system);
    if (at === undefined) {
      at = table.texts.push(item.system) - 1;
      table.index.set(item.system, at);
      table.flagged.push(false);
    }
    if (flagged.has(item.id)) table.flagged[at] = true;
  }
  return table;
}

/** The system prompts as the page holds them, each cut to its cap. */
export function pageSystems(table: SystemTable, caps: TextCaps): string[] {
  return table.texts.map((text, i) => shorten(text, table.flagged[i] ? FIELD_LENGTH : caps.detail));
}

/** The item's text fields, each cut to its cap. */
export function askOf(
  item: ChurnItem | undefined,
  texts: ItemTexts | undefined,
  caps: TextCaps,
  systems: SystemTable,
): ChurnPageAsk | null {
  if (!item || !texts) return null;
  if (isChoiceItem(item)) {
    return {
      kind: 'choice',
      question: shorten(item.question, caps.question),
      choices: item.choices.map((choice) => shorten(choice, caps.detail)),
      answer: item.answer,
    };
  }
  const details = texts.details.map((text) => shorten(text, caps.detail));
  const expected = expectedText(item.expected) === null ? null : (details.shift() as string);
  return {
    kind: 'open',
    prompt: shorten(item.prompt, caps.question),
    system: item.system === null ? null : (systems.index.get(item.system) ?? null),
    expected,
    grader: {
      type: item.grader.spec.type,
      name: item.grader.description,
      options: details,
      fingerprint: item.grader.fingerprint,
      labels: usesLabels(item),
    },
  };
}

/** The caps of the items not flagged: what the flagged ones leave of each budget, shared out. */
export function textCaps(
  texts: ReadonlyMap<string, ItemTexts>,
  flagged: ReadonlySet<string>,
  systems: SystemTable,
): TextCaps {
  const questions: number[] = [];
  const details: number[] = [];
  let questionLeft = QUESTION_BUDGET;
  let detailLeft = DETAIL_BUDGET;
  const field = (text: string) => Math.min(text.length, FIELD_LENGTH);
  for (const [id, item] of texts) {
    if (flagged.has(id)) {
      questionLeft -= field(item.question);
      for (const text of item.details) detailLeft -= field(text);
    } else {
      questions.push(field(item.question));
      for (const text of item.details) details.push(field(text));
    }
  }
  systems.texts.forEach((text, i) => {
    if (systems.flagged[i]) detailLeft -= field(text);
    else details.push(field(text));
  });
  return {
    question: Math.min(FIELD_LENGTH, lengthCap(questions, Math.max(0, questionLeft))),
    detail: Math.min(FIELD_LENGTH, lengthCap(details, Math.max(0, detailLeft))),
  };
}

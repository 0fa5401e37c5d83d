/**
 * Each model's answers to each churn item, read from the records for report.html: counted per
 * distinct answer (a letter; for an open item its text), the greedy answer, what failed, and
 * the first answer texts of each side. Open answers are graded again by the current graders
 * first, as the analysis does, so the page counts what report.json counts.
 */
import type { SampleRecord } from '../../../sampleLog/index.js';
import { lengthCap, shorten } from '../../../text/budget.js';
import { type ChurnItem, isChoiceItem } from '../items.js';
import { openRegrader } from '../openGrading.js';
import type { ChurnPageAnswerCount, ChurnPageAnswers } from '../page/types.js';
import { type ChurnCallRecord, isChurnCall } from '../records.js';

/** A distinct open answer is counted under its first characters, white space collapsed. */
export const ANSWER_KEY_LENGTH = 120;
/** Distinct answers listed per model and item; the rest are counted together. */
export const ANSWER_ROWS = 10;
/** Right and wrong examples (distinct texts) kept per model and item, and the length of each. */
export const EXAMPLES_PER_SIDE = 2;
export const EXAMPLE_LENGTH = 600;

/** The samples that gave one distinct answer, graded one way. */
interface AnswerTally {
  answer: string;
  count: number;
  correct: boolean | null;
  offLabel: boolean;
}

export interface Collected {
  /** By grade and answer: one text graded two ways (its end cut off) stays two rows. */
  counts: Map<string, AnswerTally>;
  invalid: number;
  failed: number;
  offLabel: number;
  greedy: ChurnPageAnswers['greedy'] | null;
  letters: Record<string, number> | null;
  right: string[];
  wrong: string[];
}

/**
 * What the page shows is read in sample order (a list sorted by sample, log order within one
 * sample): the first answers listed first, the first examples kept, the last greedy answer and
 * letter probabilities. Records arrive in log order, so each thing kept carries its place in
 * sample order (`order`) and the fold keeps, for each, what that order would have kept.
 */
interface Collecting {
  /** A short list, looked through: a model gives a few distinct answers to an item. */
  counts: (AnswerTally & { key: string; first: number })[];
  invalid: number;
  failed: number;
  offLabel: number;
  greedy: { value: ChurnPageAnswers['greedy']; order: number } | null;
  letters: { value: Record<string, number>; order: number } | null;
  /** The first examples of each side, each distinct text at its earliest place, by place. */
  right: { text: string; order: number }[];
  wrong: { text: string; order: number }[];
}

function emptyCollecting(): Collecting {
  return {
    counts: [],
    invalid: 0,
    failed: 0,
    offLabel: 0,
    greedy: null,
    letters: null,
    right: [],
    wrong: [],
  };
}

/** An answer text on one line, as the page lists it: NFC, white space collapsed, shortened. */
function displayAnswer(text: string, length = ANSWER_KEY_LENGTH): string {
  return shorten(text.normalize('NFC').replace(/\s+/g, ' ').trim(), length);
}

/**
 * The distinct answer a sample counts under: an open answer's text; a multiple-choice
 * answer's letter, else the start of its text.
 */
function answerKey(record: ChurnCallRecord, open: boolean): string | null {
  if (open && typeof record.text === 'string') return displayAnswer(record.text);
  if (record.answer !== null && record.answer !== undefined) return record.answer;
  if (typeof record.text === 'string') return displayAnswer(record.text);
  return null;
}

const gradeKey = (t: Omit<AnswerTally, 'answer' | 'count'>) =>
  t.correct === null ? 'n' : t.offLabel ? 'o' : t.correct ? 'r' : 'w';

function count(into: Collecting, answer: string, record: ChurnCallRecord, order: number): void {
  const offLabel = record.off_label === true;
  const grade = { correct: record.correct, offLabel };
  const key = `${gradeKey(grade)}${answer}`;
  let entry = into.counts.find((e) => e.key === key);
  if (!entry) {
    entry = { key, answer, count: 0, ...grade, first: order };
    into.counts.push(entry);
  }
  entry.count++;
  entry.first = Math.min(entry.first, order);
  if (offLabel) into.offLabel++;
}

/**
 * Keeps the EXAMPLES_PER_SIDE distinct texts that come first: a text at its earliest place,
 * and one that comes after as many others is never among them (it cannot come back earlier).
 */
function example(side: { text: string; order: number }[], text: string, order: number): void {
  const same = side.find((e) => e.text === text);
  if (same) same.order = Math.min(same.order, order);
  else if (side.length < EXAMPLES_PER_SIDE) side.push({ text, order });
  else {
    const last = side.reduce((a, b) => (b.order > a.order ? b : a));
    if (order >= last.order) return;
    last.text = text;
    last.order = order;
  }
  side.sort((a, b) => a.order - b.order);
}

function collectRecord(
  into: Collecting,
  record: ChurnCallRecord,
  open: boolean,
  order: number,
): void {
  if (record.mode === 'exact') {
    if (record.letters && (!into.letters || into.letters.order < order)) {
      into.letters = { value: { ...record.letters }, order };
    }
    return;
  }
  const key = record.status === 'ok' ? answerKey(record, open) : null;
  if (record.mode === 'greedy') {
    if (!into.greedy || into.greedy.order < order) {
      into.greedy = {
        value: { answer: key, correct: record.correct, status: record.status },
        order,
      };
    }
    return;
  }
  if (record.status === 'timeout' || record.status === 'error') into.failed++;
  else if (record.status !== 'ok' || key === null || record.correct === null) into.invalid++;
  else count(into, key, record, order);
  if (typeof record.text === 'string' && record.status === 'ok' && record.correct !== null) {
    example(record.correct ? into.right : into.wrong, shorten(record.text, EXAMPLE_LENGTH), order);
  }
}

function collected(from: Collecting): Collected {
  const counts = [...from.counts].sort((a, b) => a.first - b.first);
  return {
    counts: new Map(counts.map(({ key, first: _, ...tally }) => [key, tally])),
    invalid: from.invalid,
    failed: from.failed,
    offLabel: from.offLabel,
    greedy: from.greedy?.value ?? null,
    letters: from.letters?.value ?? null,
    right: from.right.map((e) => e.text),
    wrong: from.wrong.map((e) => e.text),
  };
}

/** A place in sample order: the sample first, then the place in the log. */
const SAMPLE_STRIDE = 2 ** 32;

/**
 * Each model's answers to each item, per item id and model index, folded from the records as
 * they arrive (open answers graded again first, as the analysis does).
 */
export class AnswerCollector {
  private readonly byItem = new Map<string, { first: number; perModel: Collecting[] }>();
  private readonly open: ReadonlySet<string>;
  private readonly regrade: ((record: SampleRecord) => SampleRecord) | null;
  private seen = 0;

  constructor(
    items: readonly ChurnItem[],
    private readonly models: readonly string[],
  ) {
    this.open = new Set(items.filter((item) => !isChoiceItem(item)).map((item) => item.id));
    this.regrade = openRegrader(items);
  }

  add(logged: SampleRecord): void {
    const record = this.regrade ? this.regrade(logged) : logged;
    if (!isChurnCall(record)) return;
    const order = record.sample * SAMPLE_STRIDE + this.seen++;
    const m = this.models.indexOf(record.model);
    if (m < 0) return;
    let item = this.byItem.get(record.item);
    if (!item) {
      item = { first: order, perModel: this.models.map(emptyCollecting) };
      this.byItem.set(record.item, item);
    }
    item.first = Math.min(item.first, order);
    collectRecord(item.perModel[m] as Collecting, record, this.open.has(record.item), order);
  }

  /** Per item id (in sample order of their first answer), per model index. */
  answers(): Map<string, Collected[]> {
    const items = [...this.byItem].sort((a, b) => a[1].first - b[1].first);
    return new Map(items.map(([id, { perModel }]) => [id, perModel.map(collected)]));
  }
}

/**
 * Characters of the answer texts open items' answers are listed under, all items together,
 * each listed answer costing its text and ROW_COST: the flagged items' answers are listed in
 * full (ANSWER_ROWS of them, ANSWER_KEY_LENGTH characters each); the others list the answers
 * most samples gave, as many as fit at MIN_ANSWER_LENGTH characters each (an answer given once
 * is dropped before one given twice), and their texts share what is left. The answers not
 * listed are counted together.
 */
export const ANSWER_TEXT_BUDGET = 2_000_000;
/** What a listed answer adds to the page besides its text: `["…",10,false],`. */
export const ROW_COST = 16;
/** What the count of the answers not listed adds: `"others":{"answers":9,…}`. */
export const OTHERS_COST = 48;
/** Shortest start of an answer text listed before fewer answers are. */
export const MIN_ANSWER_LENGTH = 40;

/** How open items the gate did not flag list their answers. */
export interface AnswerCaps {
  /** Longest answer text listed. */
  length: number;
  /** Fewest samples a listed answer was given by (Infinity: none listed). */
  fewest: number;
}

export function answerCaps(
  answers: ReadonlyMap<string, Collected[]>,
  open: ReadonlySet<string>,
  flagged: ReadonlySet<string>,
): AnswerCaps {
  // The flagged lists' cost; the others' rows, greedy answers and their number.
  let flaggedCost = 0;
  let lists = 0;
  const rows: { count: number; length: number }[] = [];
  const greedy: number[] = [];
  for (const [id, perModel] of answers) {
    if (!open.has(id)) continue;
    for (const collected of perModel) {
      // The answers the model's distribution may list: the most frequent, with their lengths.
      const top = [...collected.counts.values()]
        .sort((a, b) => b.count - a.count)
        .slice(0, ANSWER_ROWS)
        .map((t) => ({ count: t.count, length: t.answer.length }));
      const first = collected.greedy?.answer?.length;
      if (flagged.has(id)) {
        for (const row of top) flaggedCost += row.length + ROW_COST;
        flaggedCost += OTHERS_COST + (first === undefined ? 0 : first + ROW_COST);
        continue;
      }
      lists++;
      rows.push(...top);
      if (first !== undefined) greedy.push(first);
    }
  }
  const least = (length: number) => Math.min(length, MIN_ANSWER_LENGTH) + ROW_COST;
  // Room for the listed answers' texts, every list's count of the others kept apart.
  const room = ANSWER_TEXT_BUDGET - flaggedCost - OTHERS_COST * lists;
  let used = greedy.reduce((sum, length) => sum + least(length), 0);
  // The answers most samples gave first, all those of one count or none.
  const costOf = new Map<number, number>();
  for (const row of rows) costOf.set(row.count, (costOf.get(row.count) ?? 0) + least(row.length));
  // 1 when every answer fits (or there is none), Infinity when none does.
  let fewest = 1;
  let previous = Number.POSITIVE_INFINITY;
  for (const [count, cost] of [...costOf].sort((a, b) => b[0] - a[0])) {
    if (used + cost > room) {
      fewest = previous;
      break;
    }
    used += cost;
    previous = count;
  }
  const kept = [...rows.filter((r) => r.count >= fewest).map((r) => r.length), ...greedy];
  const length = lengthCap(kept, Math.max(0, room - ROW_COST * kept.length));
  return { length: Math.min(ANSWER_KEY_LENGTH, length), fewest };
}

/**
 * The distinct answers, each cut to `cap` (those equal once cut, and graded alike, counted
 * together), most frequent first: those `fewest` samples or more gave, up to ANSWER_ROWS; the
 * others counted together.
 */
function distribution(
  collected: Collected,
  cap: number,
  fewest: number,
): Pick<ChurnPageAnswers, 'counts' | 'others'> {
  const merged = new Map<string, AnswerTally>();
  for (const tally of collected.counts.values()) {
    const answer = shorten(tally.answer, cap);
    const key = `${gradeKey(tally)}${answer}`;
    const entry = merged.get(key);
    if (entry) entry.count += tally.count;
    else merged.set(key, { ...tally, answer });
  }
  const sorted = [...merged.values()].sort(
    (a, b) => b.count - a.count || a.answer.localeCompare(b.answer),
  );
  const listed = sorted.filter((t) => t.count >= fewest).slice(0, ANSWER_ROWS);
  const counts = listed.map(
    (t): ChurnPageAnswerCount =>
      t.offLabel ? [t.answer, t.count, false, 1] : [t.answer, t.count, t.correct],
  );
  const rest = sorted.slice(listed.length);
  if (rest.length === 0) return { counts };
  return {
    counts,
    others: {
      answers: rest.length,
      samples: rest.reduce((s, t) => s + t.count, 0),
      right: rest.reduce((s, t) => s + (t.correct ? t.count : 0), 0),
    },
  };
}

export interface AnswerOptions {
  /** Longest answer text listed (a letter is never cut). */
  cap: number;
  /** Fewest samples an answer listed was given by; the others are counted together. */
  fewest: number;
  /** The item is graded by labels: its off-label answers are counted. */
  labels: boolean;
  /** The examples the page shows, null for none. */
  examples: ChurnPageAnswers['examples'] | null;
}

export function answersOf(
  collected: Collected | undefined,
  options: AnswerOptions,
): ChurnPageAnswers | null {
  if (!collected) return null;
  const answers: ChurnPageAnswers = {
    ...distribution(collected, options.cap, options.fewest),
    invalid: collected.invalid,
    failed: collected.failed,
  };
  if (options.labels) answers.offLabel = collected.offLabel;
  const greedy = collected.greedy;
  if (greedy) {
    answers.greedy =
      greedy.answer === null ? greedy : { ...greedy, answer: shorten(greedy.answer, options.cap) };
  }
  if (collected.letters) answers.letters = collected.letters;
  if (options.examples) answers.examples = options.examples;
  return answers;
}

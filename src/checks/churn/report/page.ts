/**
 * The churn check's part of report.html: each item row of the section joined with the item's
 * text and each model's answers from the records. Pure; bounded in size: item texts share a
 * budget (the longest are shortened first), answer texts are a few examples per model, for the
 * most changed items first, within a budget of their own.
 */
import type { ChurnCallRecord, SampleRecord } from '../../../sampleLog/index.js';
import { lengthCap, shorten } from '../../../text/budget.js';
import { interval, num, percent, plural, signed } from '../../../text/format.js';
import type { CheckPageInput } from '../../types.js';
import type { ChurnItem } from '../items.js';
import type {
  ChurnSection,
  ExactChurnSection,
  ItemRow,
  ModelSummary,
  SampledChurnSection,
} from '../section.js';
import type {
  ChurnPage,
  ChurnPageAnswerCount,
  ChurnPageAnswers,
  ChurnPageAsk,
  ChurnPageDomain,
  ChurnPageItem,
  PageRows,
} from './pageTypes.js';

/**
 * Characters of item text in the page, all items together: questions (or prompts), and
 * choices. The items the gate flagged keep their texts whole (up to FIELD_LENGTH each); the
 * others share what is left, the longest texts shortened first. With the answer counts and
 * examples, a 150,000-request run's page stays under 15 MB (bench/page.ts).
 */
export const QUESTION_BUDGET = 4_000_000;
export const CHOICE_BUDGET = 3_000_000;
export const FIELD_LENGTH = 4_000;
/** Characters of answer examples in the page, all items together. */
export const EXAMPLE_BUDGET = 1_500_000;
/** Right and wrong examples kept per model and item, and the length of each. */
export const EXAMPLES_PER_SIDE = 2;
export const EXAMPLE_LENGTH = 600;
/** A distinct answer text is counted under its first characters. */
const ANSWER_KEY_LENGTH = 120;

interface Collected {
  counts: Map<string, { count: number; correct: boolean | null }>;
  invalid: number;
  failed: number;
  greedy: ChurnPageAnswers['greedy'] | null;
  letters: Record<string, number> | null;
  right: string[];
  wrong: string[];
}

function emptyCollected(): Collected {
  return {
    counts: new Map(),
    invalid: 0,
    failed: 0,
    greedy: null,
    letters: null,
    right: [],
    wrong: [],
  };
}

/** The distinct answer a sample counts under: its letter, else the start of its text. */
function answerKey(record: ChurnCallRecord): string | null {
  if (record.answer !== null && record.answer !== undefined) return record.answer;
  if (typeof record.text === 'string') return shorten(record.text.trim(), ANSWER_KEY_LENGTH);
  return null;
}

function collectRecord(into: Collected, record: ChurnCallRecord): void {
  if (record.mode === 'exact') {
    if (record.letters) into.letters = { ...record.letters };
    return;
  }
  const key = record.status === 'ok' ? answerKey(record) : null;
  if (record.mode === 'greedy') {
    into.greedy = { answer: key, correct: record.correct, status: record.status };
    return;
  }
  if (record.status === 'timeout' || record.status === 'error') into.failed++;
  else if (record.status !== 'ok' || key === null || record.correct === null) into.invalid++;
  else {
    const entry = into.counts.get(key) ?? { count: 0, correct: record.correct };
    entry.count++;
    into.counts.set(key, entry);
  }
  if (typeof record.text === 'string' && record.status === 'ok' && record.correct !== null) {
    const side = record.correct ? into.right : into.wrong;
    if (side.length < EXAMPLES_PER_SIDE) side.push(shorten(record.text, EXAMPLE_LENGTH));
  }
}

/** Per item id, per model index: what the records say (sample order: the first examples). */
function collectAnswers(
  records: readonly SampleRecord[],
  models: readonly string[],
): Map<string, Collected[]> {
  const calls = records.filter(
    (r): r is ChurnCallRecord => r.kind === 'call' && r.check === 'churn',
  );
  calls.sort((a, b) => a.sample - b.sample);
  const byItem = new Map<string, Collected[]>();
  for (const record of calls) {
    const m = models.indexOf(record.model);
    if (m < 0) continue;
    let perModel = byItem.get(record.item);
    if (!perModel) {
      perModel = models.map(emptyCollected);
      byItem.set(record.item, perModel);
    }
    collectRecord(perModel[m] as Collected, record);
  }
  return byItem;
}

function answersOf(
  collected: Collected | undefined,
  withExamples: boolean,
): ChurnPageAnswers | null {
  if (!collected) return null;
  const counts = [...collected.counts.entries()]
    .map(([answer, { count, correct }]): ChurnPageAnswerCount => [answer, count, correct])
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const answers: ChurnPageAnswers = {
    counts,
    invalid: collected.invalid,
    failed: collected.failed,
  };
  if (collected.greedy) answers.greedy = collected.greedy;
  if (collected.letters) answers.letters = collected.letters;
  if (withExamples && collected.right.length + collected.wrong.length > 0) {
    answers.examples = { right: collected.right, wrong: collected.wrong };
  }
  return answers;
}

/** How long each kind of text may be. */
interface TextCaps {
  question: number;
  choice: number;
}

/** The item's text fields, each cut to its cap. */
function askOf(item: ChurnItem | undefined, caps: TextCaps): ChurnPageAsk | null {
  if (!item) return null;
  return {
    kind: 'choice',
    question: shorten(item.question, caps.question),
    choices: item.choices.map((choice) => shorten(choice, caps.choice)),
    answer: item.answer,
  };
}

const isFlagged = (row: { cls: string }) => row.cls === 'improved' || row.cls === 'deteriorated';

/** The caps of the items not flagged: what the flagged ones leave of each budget, shared out. */
function textCaps(rows: readonly Row[], byId: ReadonlyMap<string, ChurnItem>): TextCaps {
  const flagged = new Set(rows.filter(isFlagged).map((r) => r.id));
  const questions: number[] = [];
  const choices: number[] = [];
  let questionLeft = QUESTION_BUDGET;
  let choiceLeft = CHOICE_BUDGET;
  for (const item of byId.values()) {
    const question = Math.min(item.question.length, FIELD_LENGTH);
    const choiceLengths = item.choices.map((c) => Math.min(c.length, FIELD_LENGTH));
    if (flagged.has(item.id)) {
      questionLeft -= question;
      choiceLeft -= choiceLengths.reduce((a, b) => a + b, 0);
    } else {
      questions.push(question);
      for (const length of choiceLengths) choices.push(length);
    }
  }
  return {
    question: Math.min(FIELD_LENGTH, lengthCap(questions, Math.max(0, questionLeft))),
    choice: Math.min(FIELD_LENGTH, lengthCap(choices, Math.max(0, choiceLeft))),
  };
}

type Row = Omit<ChurnPageItem, 'ask' | 'answers'>;

function sampledRows(section: SampledChurnSection): Row[] {
  const comparison = section.comparison;
  if (!comparison) return [];
  const rci = section.method === 'rci';
  return comparison.items.map((row: ItemRow) => ({
    id: row.id,
    domain: row.domain,
    cls: rci ? row.rciClass : row.fisherBh,
    excluded: row.excluded,
    p: row.p,
    x: row.x,
    n: row.n,
    delta: row.delta,
    pValue: row.fisherP,
    q: row.q,
    rci: row.rci,
  }));
}

function exactRows(section: ExactChurnSection): Row[] {
  return (section.comparison?.items ?? []).map((row) => ({
    id: row.id,
    domain: row.domain,
    cls: row.effect,
    excluded: null,
    p: row.p,
    x: null,
    n: null,
    delta: row.delta,
    pValue: null,
    q: null,
    rci: null,
  }));
}

/** Single-model (nightly) runs have no comparison rows: the items with the model's answers. */
function singleModelRows(items: readonly ChurnItem[]): Row[] {
  return items.map((item) => ({
    id: item.id,
    domain: item.domain,
    cls: 'unchanged',
    excluded: null,
    p: [null, null],
    x: null,
    n: null,
    delta: null,
    pValue: null,
    q: null,
    rci: null,
  }));
}

/** The items whose answer texts go in first: the gate's changes, then by the size of Δp. */
function examplePriority(rows: readonly Row[]): Row[] {
  const changed = (r: Row) => (isFlagged(r) ? 1 : 0);
  return [...rows].sort(
    (a, b) => changed(b) - changed(a) || Math.abs(b.delta ?? 0) - Math.abs(a.delta ?? 0),
  );
}

function exampleLength(collected: Collected[] | undefined): number {
  return (collected ?? []).reduce(
    (sum, c) => sum + [...c.right, ...c.wrong].reduce((s, t) => s + t.length, 0),
    0,
  );
}

/** The ids whose examples fit the budget, most changed first. */
function itemsWithExamples(rows: readonly Row[], answers: Map<string, Collected[]>): Set<string> {
  const chosen = new Set<string>();
  let left = EXAMPLE_BUDGET;
  for (const row of examplePriority(rows)) {
    const length = exampleLength(answers.get(row.id));
    if (length === 0 || length > left) continue;
    left -= length;
    chosen.add(row.id);
  }
  return chosen;
}

/** The definitions the page reads: the items (the check's definitions hold more). */
interface ItemDefinitions {
  items: readonly ChurnItem[];
}

export function churnPage(input: CheckPageInput<ItemDefinitions, ChurnSection>): ChurnPage {
  const { section, definitions, ctx } = input;
  const models = [ctx.models.baseline, ...(ctx.models.candidate ? [ctx.models.candidate] : [])];
  const answers = collectAnswers(input.records, models);
  const byId = new Map(definitions.items.map((item) => [item.id, item]));
  const rows =
    section.estimator === 'logprobs'
      ? exactRows(section)
      : section.comparison
        ? sampledRows(section)
        : singleModelRows(definitions.items);
  const caps = textCaps(rows, byId);
  const whole: TextCaps = { question: FIELD_LENGTH, choice: FIELD_LENGTH };
  const withExamples = itemsWithExamples(rows, answers);
  const items = rows.map((row) => {
    const perModel = answers.get(row.id);
    return {
      ...row,
      ask: askOf(byId.get(row.id), isFlagged(row) ? whole : caps),
      answers: models.map((_, m) => answersOf(perModel?.[m], withExamples.has(row.id))),
    };
  });
  return {
    check: 'churn',
    estimator: section.estimator ?? 'sampled',
    method: methodText(section),
    models,
    samples: section.estimator === 'logprobs' ? null : section.samples,
    overview: overviewRows(section, models),
    domainTest: domainTestText(section),
    domains: domainRows(section),
    items,
    notes: pageNotes(caps, answers, withExamples),
  };
}

function pageNotes(
  caps: TextCaps,
  answers: Map<string, Collected[]>,
  withExamples: ReadonlySet<string>,
): string[] {
  const notes: string[] = [];
  if (caps.question < FIELD_LENGTH || caps.choice < FIELD_LENGTH) {
    notes.push(
      `To keep this page small, the questions of items the gate did not flag are shortened to ${caps.question} characters and their choices to ${caps.choice}; flagged items keep theirs whole (up to ${FIELD_LENGTH}), and the items file holds every text.`,
    );
  }
  let left = 0;
  for (const [id, perModel] of answers)
    if (exampleLength(perModel) > 0 && !withExamples.has(id)) left++;
  if (left > 0) {
    notes.push(
      `Answer examples of ${plural(left, 'item')} left out to keep this page small (the sample log holds every answer); the most changed items keep theirs.`,
    );
  }
  return notes;
}

function methodText(section: ChurnSection): string {
  if (section.estimator === 'logprobs')
    return `items whose p(correct) moved by at least ${section.minEffect}`;
  return section.method === 'rci'
    ? 'Reliable Change Index (method A)'
    : `Fisher exact test per item, Benjamini–Hochberg q ≤ ${section.alpha} (method B)`;
}

function domainTestText(section: ChurnSection): string | null {
  if (section.estimator === 'logprobs' || !section.comparison) return null;
  const { level, minItems, overall } = section.comparison.domainTest;
  const direction = overall.direction
    ? `overall change significantly ${overall.direction}`
    : 'no significant overall change';
  return `Each domain of at least ${minItems} items is tested for a net loss (exact test on the paired per-item changes), Holm-adjusted over the domains at family-wise level ${num(level, 4)}; ${direction}.`;
}

function domainRows(section: ChurnSection): ChurnPageDomain[] {
  return (section.comparison?.domains ?? []).map((d) => ({
    domain: d.domain,
    items: d.items,
    accuracy: [d.baselineAccuracy, d.candidateAccuracy],
    delta: d.delta,
    improved: d.improved,
    deteriorated: d.deteriorated,
    net: d.net,
    pLoss: d.test?.pLoss ?? null,
    adjustedLoss: d.test?.adjustedLoss ?? null,
    loss: d.loss,
    gain: d.gain,
    reversal: d.reversal,
  }));
}

function accuracyText(summary: Pick<ModelSummary, 'accuracy'> | null): string {
  if (!summary) return '–';
  const { mean, low, high } = summary.accuracy;
  return `${percent(mean)} ${interval(low, high, (v) => percent(v))}`;
}

function overviewRows(section: ChurnSection, models: readonly string[]): PageRows {
  const both = [section.baseline, section.candidate];
  const perModel = (f: (s: NonNullable<(typeof both)[number]>) => string) =>
    models.map((_, i) => {
      const s = both[i];
      return s ? f(s) : '–';
    });
  const rows: string[][] = [
    ['accuracy (mean of item p, 95% interval)', ...perModel((s) => accuracyText(s))],
    ['invalid answers', ...perModel((s) => percent(s.invalidShare))],
    ['timed out', ...perModel((s) => percent(s.timeoutShare))],
  ];
  if (section.estimator !== 'logprobs') {
    rows.push([
      'split-half reliability r_xx',
      ...perModel((s) => num((s as ModelSummary).reliability)),
    ]);
    rows.push(['greedy accuracy', ...perModel((s) => percent((s as ModelSummary).greedyAccuracy))]);
    const c = section.comparison;
    if (c) {
      const gate = section.method === 'rci' ? c.rci : c.fisherBh;
      rows.push([
        'Δ accuracy (95% interval)',
        '',
        `${signed(c.delta.mean)} ${interval(c.delta.low, c.delta.high)}`,
      ]);
      rows.push([
        'reliably improved / deteriorated',
        '',
        `${gate.improved} / ${gate.deteriorated} (expected between identical models: ${num(gate.expected.improved.mean, 1)} / ${num(gate.expected.deteriorated.mean, 1)})`,
      ]);
    }
  }
  return { columns: ['', ...models], rows: rows.map((r) => r.slice(0, models.length + 1)) };
}

/**
 * The churn check's part of report.html: each item row of the section joined with the item's
 * texts (pageAsk.ts) and each model's answers from the records (pageAnswers.ts). Pure; bounded
 * in size: item texts share a budget (the longest are shortened first), so do the answer texts
 * open items are counted under, and answer examples are a few per model, for the most changed
 * items first, within a budget of their own.
 */
import type { ChurnConfig } from '../settings.js';
import { interval, num, percent, plural, signed } from '../../../text/format.js';
import type { CheckContext, CheckFold, CheckPageInput } from '../../types.js';
import type { PageTable } from '../../../render/page/types.js';
import { type ChurnItem, isChoiceItem } from '../items.js';
import type { AnswerPair, ChurnSection, ItemRow, ModelSummary } from '../section.js';
import {
  ANSWER_KEY_LENGTH,
  ANSWER_ROWS,
  answerCaps,
  answersOf,
  AnswerCollector,
  type Collected,
} from './pageAnswers.js';
import {
  askOf,
  FIELD_LENGTH,
  itemTexts,
  pageSystems,
  systemTable,
  textCaps,
  usesLabels,
  WHOLE,
} from './pageAsk.js';
import type { ChurnPage, ChurnPageAnswers, ChurnPageDomain, ChurnPageItem } from '../page/types.js';

/** Characters of answer examples in the page, all items together. */
export const EXAMPLE_BUDGET = 1_500_000;

type Examples = NonNullable<ChurnPageAnswers['examples']>;

const isFlagged = (row: { cls: string }) => row.cls === 'improved' || row.cls === 'deteriorated';

type Row = Omit<ChurnPageItem, 'ask' | 'answers'>;

/** A row with nothing measured beyond what `measured` gives (logprobs, single-model rows). */
function rowOf(id: string, domain: string, measured: Partial<Row> = {}): Row {
  const none = { excluded: null, p: [null, null] as Row['p'], x: null, n: null, delta: null };
  return { id, domain, cls: 'unchanged', ...none, pValue: null, q: null, rci: null, ...measured };
}

/**
 * Each model's examples of an item: the evidence report.json carries for it (a flagged open
 * item: one right and one wrong answer per model), else the first answer texts of the log.
 */
function examplesOf(
  collected: Collected | undefined,
  evidence: AnswerPair | undefined,
): Examples | null {
  if (evidence) {
    const right = evidence.correct === null ? [] : [evidence.correct];
    const wrong = evidence.wrong === null ? [] : [evidence.wrong];
    return right.length + wrong.length > 0 ? { right, wrong, from: 'report' } : null;
  }
  if (!collected || collected.right.length + collected.wrong.length === 0) return null;
  return { right: collected.right, wrong: collected.wrong, from: 'log' };
}

const exampleLength = (examples: readonly (Examples | null)[]): number =>
  examples.reduce((n, e) => n + [...(e?.right ?? []), ...(e?.wrong ?? [])].join('').length, 0);

/** The ids whose examples fit the budget, most changed first. */
function itemsWithExamples(
  rows: readonly Row[],
  examples: ReadonlyMap<string, (Examples | null)[]>,
): Set<string> {
  const chosen = new Set<string>();
  let left = EXAMPLE_BUDGET;
  // The gate's changes first, then by the size of Δp.
  const changed = (r: Row) => (isFlagged(r) ? 1 : 0);
  const byPriority = [...rows].sort(
    (a, b) => changed(b) - changed(a) || Math.abs(b.delta ?? 0) - Math.abs(a.delta ?? 0),
  );
  for (const row of byPriority) {
    const length = exampleLength(examples.get(row.id) ?? []);
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

/** Single-model (nightly) runs have no comparison rows: the items with the model's answers. */
function rowsOf(section: ChurnSection, items: readonly ChurnItem[]): Row[] {
  if (section.estimator === 'logprobs') {
    const rows = section.comparison?.items ?? [];
    return rows.map((r) => rowOf(r.id, r.domain, { cls: r.effect, p: r.p, delta: r.delta }));
  }
  if (!section.comparison) return items.map((item) => rowOf(item.id, item.domain));
  const rci = section.method === 'rci';
  return section.comparison.items.map((row: ItemRow) =>
    rowOf(row.id, row.domain, {
      cls: rci ? row.rciClass : row.fisherBh,
      excluded: row.excluded,
      p: row.p,
      x: row.x,
      n: row.n,
      delta: row.delta,
      pValue: row.fisherP,
      q: row.q,
      rci: row.rci,
    }),
  );
}

type ItemParts = ReturnType<typeof itemParts>;

function itemOf(row: Row, parts: ItemParts, models: readonly string[]): ChurnPageItem {
  const item = parts.byId.get(row.id);
  const whole = parts.flagged.has(row.id);
  const perModel = parts.answers.get(row.id);
  const examples = parts.withExamples.has(row.id) ? parts.examples.get(row.id) : undefined;
  const cut = item !== undefined && !isChoiceItem(item) && !whole;
  const cap = cut ? parts.answerCaps.length : Number.POSITIVE_INFINITY;
  const fewest = cut ? parts.answerCaps.fewest : 1;
  return {
    ...row,
    ask: askOf(item, parts.texts.get(row.id), whole ? WHOLE : parts.caps, parts.systems),
    answers: models.map((_, m) =>
      answersOf(perModel?.[m], {
        cap,
        fewest,
        labels: item ? usesLabels(item) : false,
        examples: examples?.[m] ?? null,
      }),
    ),
  };
}

/** What the page's item list is built from, the cuts decided. */
function itemParts(
  section: ChurnSection,
  items: readonly ChurnItem[],
  answers: ReadonlyMap<string, Collected[]>,
  rows: readonly Row[],
  models: readonly string[],
) {
  const flagged = new Set(rows.filter(isFlagged).map((r) => r.id));
  const texts = new Map(items.map((item) => [item.id, itemTexts(item)]));
  const systems = systemTable(items, flagged);
  const open = new Set(items.filter((item) => !isChoiceItem(item)).map((item) => item.id));
  // report.json's evidence per item id: [baseline, candidate].
  const evidence = new Map<string, [AnswerPair, AnswerPair]>();
  for (const row of section.estimator === 'logprobs' ? [] : (section.comparison?.items ?? []))
    if (row.examples) evidence.set(row.id, [row.examples.baseline, row.examples.candidate]);
  const examples = new Map(
    rows.map((row) => [
      row.id,
      models.map((_, m) => examplesOf(answers.get(row.id)?.[m], evidence.get(row.id)?.[m])),
    ]),
  );
  return {
    byId: new Map(items.map((item) => [item.id, item])),
    texts,
    systems,
    answers,
    examples,
    flagged,
    withExamples: itemsWithExamples(rows, examples),
    caps: textCaps(texts, flagged, systems),
    answerCaps: answerCaps(answers, open, flagged),
  };
}

/** Each model's answers to each item, folded from the records as they arrive. */
export const answerFold: CheckFold<
  ItemDefinitions,
  Map<string, Collected[]>,
  AnswerCollector,
  ChurnConfig
> = {
  start: (definitions, ctx) => new AnswerCollector(definitions.items, modelsOf(ctx)),
  add: (collector, record) => collector.add(record),
  finish: (collector) => collector.answers(),
};

function modelsOf(ctx: CheckContext): string[] {
  return [ctx.models.baseline, ...(ctx.models.candidate ? [ctx.models.candidate] : [])];
}

export function churnPage(
  input: CheckPageInput<ItemDefinitions, ChurnSection, ChurnConfig, Map<string, Collected[]>>,
): ChurnPage {
  const { section, definitions, ctx } = input;
  const models = modelsOf(ctx);
  const rows = rowsOf(section, definitions.items);
  const parts = itemParts(section, definitions.items, input.collected, rows, models);
  return {
    check: 'churn',
    estimator: section.estimator ?? 'sampled',
    method: methodText(section),
    models,
    samples: section.estimator === 'logprobs' ? null : section.samples,
    overview: overviewRows(section, models),
    domainTest: domainTestText(section),
    domains: domainRows(section),
    items: rows.map((row) => itemOf(row, parts, models)),
    systems: pageSystems(parts.systems, parts.caps),
    notes: pageNotes(parts, definitions.items),
  };
}

function pageNotes(parts: ItemParts, items: readonly ChurnItem[]): string[] {
  const notes: string[] = [];
  const { caps, answerCaps } = parts;
  const cut = [
    caps.question < FIELD_LENGTH ? `questions and prompts to ${caps.question} characters` : '',
    caps.detail < FIELD_LENGTH
      ? `choices, system prompts, expected answers and grader options to ${caps.detail}`
      : '',
  ].filter(Boolean);
  if (cut.length > 0) {
    notes.push(
      `To keep this page small, the texts of items the gate did not flag are shortened: ${cut.join('; ')}. Flagged items keep theirs whole (up to ${FIELD_LENGTH} characters each), and the items file holds every text.`,
    );
  }
  const { length, fewest } = answerCaps;
  if ((length < ANSWER_KEY_LENGTH || fewest > 1) && !items.every(isChoiceItem)) {
    const listed =
      fewest === Number.POSITIVE_INFINITY
        ? ['their answers are counted, not listed']
        : [
            fewest > 1
              ? `only the answers at least ${fewest} samples gave are listed, the others counted together`
              : '',
            length < ANSWER_KEY_LENGTH
              ? `each answer is listed by its first ${length} characters (answers alike that far, and graded alike, counted as one)`
              : '',
          ].filter(Boolean);
    notes.push(
      `To keep this page small, for the open items the gate did not flag: ${listed.join('; ')}. Flagged items list up to ${ANSWER_ROWS} answers each, by their first ${ANSWER_KEY_LENGTH} characters.`,
    );
  }
  const left = [...parts.examples].filter(
    ([id, perModel]) => exampleLength(perModel) > 0 && !parts.withExamples.has(id),
  ).length;
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

function overviewRows(section: ChurnSection, models: readonly string[]): PageTable {
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

/**
 * The churn part of report.html from a hand-made log: two models, two items, K = 4, answer
 * texts kept for the first item. The counts per answer, the greedy answer and the examples
 * are read off the records below by hand.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { churnCheck } from '../../../src/checks/churn/index.js';
import { answerFold, churnPage } from '../../../src/checks/churn/report/page.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import { EXAMPLE_LENGTH, EXAMPLES_PER_SIDE } from '../../../src/checks/churn/report/pageAnswers.js';
import { type ChoiceItem, parseItems } from '../../../src/checks/churn/items.js';
import type { OpenItem } from '../../../src/checks/churn/openItems.js';
import {
  askOf,
  DETAIL_BUDGET,
  itemTexts,
  pageSystems,
  QUESTION_BUDGET,
  systemTable,
  textCaps,
} from '../../../src/checks/churn/report/pageAsk.js';
import { checkContext } from '../../../src/checks/context.js';
import '../../../src/checks/builtIn.js';
import { loadConfig } from '../../../src/config/load.js';
import { record } from './simulate.js';
import { foldRecords } from '../../../src/checks/fold.js';

const ITEMS: ChoiceItem[] = [
  {
    id: 'q1',
    domain: 'law',
    question: 'Which court?',
    choices: ['high', 'low', 'none'],
    answer: 'A',
    line: 1,
  },
  { id: 'q2', domain: 'math', question: '2 + 2?', choices: ['3', '4'], answer: 'B', line: 2 },
];

function withText(r: ReturnType<typeof record>, text: string) {
  return { ...r, text };
}

function records() {
  const [q1, q2] = ITEMS as [ChoiceItem, ChoiceItem];
  return [
    // base on q1: A A A B (3 right), greedy A; texts kept.
    ...['A', 'A', 'A', 'B'].map((a, k) =>
      withText(
        record('base', q1, 'stochastic', k, a),
        `answer ${a} #${k} ${'x'.repeat(k === 0 ? 2 * EXAMPLE_LENGTH : 0)}`,
      ),
    ),
    record('base', q1, 'greedy', 0, 'A'),
    // cand on q1: B C B, one invalid; greedy B.
    record('cand', q1, 'stochastic', 0, 'B'),
    record('cand', q1, 'stochastic', 1, 'C'),
    record('cand', q1, 'stochastic', 2, 'B'),
    record('cand', q1, 'stochastic', 3, null),
    record('cand', q1, 'greedy', 0, 'B'),
    // q2: both always right, one timeout for cand.
    ...[0, 1, 2, 3].map((k) => record('base', q2, 'stochastic', k, 'B')),
    ...[0, 1, 2].map((k) => record('cand', q2, 'stochastic', k, 'B')),
    record('cand', q2, 'stochastic', 3, null, 'timeout'),
  ];
}

describe('churnPage', () => {
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'test' },
      { path: ['models', 'candidate'], value: 'cand', source: 'test' },
      { path: ['churn', 'samples'], value: 4, source: 'test' },
      { path: ['checks'], value: ['churn'], source: 'test' },
    ],
  });
  const ctx = checkContext(loaded);
  const definitions = { items: ITEMS, file: 'items.yml', warnings: [] };
  const section = foldRecords(churnCheck.fold, records(), definitions, ctx);
  const page = churnPage({ section, collected: answersOf(records()), definitions, ctx });
  function answersOf(list: readonly SampleRecord[]) {
    return foldRecords(answerFold, list, definitions, ctx);
  }
  const q1 = page.items.find((i) => i.id === 'q1');
  const q2 = page.items.find((i) => i.id === 'q2');

  it('joins each item row with its question, choices and correct letter', () => {
    expect(q1?.ask).toEqual({
      kind: 'choice',
      question: 'Which court?',
      choices: ['high', 'low', 'none'],
      answer: 'A',
    });
    expect(q1?.p).toEqual([0.75, 0]);
    expect(q1?.x).toEqual([3, 0]);
    expect(q1?.n).toEqual([4, 3]);
  });

  it('counts each model’s samples per letter, with the greedy answer and what failed', () => {
    const [base, cand] = q1?.answers ?? [];
    expect(base?.counts).toEqual([
      ['A', 3, true],
      ['B', 1, false],
    ]);
    expect(base?.greedy).toEqual({ answer: 'A', correct: true, status: 'ok' });
    expect(cand?.counts).toEqual([
      ['B', 2, false],
      ['C', 1, false],
    ]);
    expect([cand?.invalid, cand?.failed]).toEqual([1, 0]);
    expect([q2?.answers[1]?.invalid, q2?.answers[1]?.failed]).toEqual([0, 1]);
  });

  it('keeps a few right and wrong answer texts, shortened, where the log has them', () => {
    const examples = q1?.answers[0]?.examples;
    expect(examples?.right).toHaveLength(EXAMPLES_PER_SIDE);
    expect(examples?.right[0]).toHaveLength(EXAMPLE_LENGTH);
    expect(examples?.right[0]?.endsWith('…')).toBe(true);
    expect(examples?.right[1]).toBe('answer A #1 ');
    expect(examples?.wrong).toEqual(['answer B #3 ']);
    expect(q1?.answers[1]?.examples).toBeUndefined();
  });

  it('reads the answers in sample order, whatever order the log holds them in', () => {
    // Samples written last first (a resumed run fills earlier samples later): the same page.
    const reversed = churnPage({
      section,
      collected: answersOf([...records()].reverse()),
      definitions,
      ctx,
    });
    expect(reversed).toEqual(page);
    // Sample 0 arriving last still comes first among the examples, the later ones make room.
    const [first, ...rest] = records();
    const late = withText(first as ReturnType<typeof record>, 'late');
    const collected = answersOf([...rest, late]);
    expect(collected.get('q1')?.[0]?.right).toEqual(['late', 'answer A #1 ']);
  });

  it('writes the domains with their loss test and an overview per model', () => {
    expect(page.domains.map((d) => d.domain).sort()).toEqual(['law', 'math']);
    expect(page.overview.columns).toEqual(['', 'base', 'cand']);
    expect(page.models).toEqual(['base', 'cand']);
  });
});

/**
 * Open items: K = 12, answers logged with a wrong grade on purpose (the page grades the texts
 * as the analysis does). "desk" (label grader): the baseline is always right, the candidate
 * never (3 answers none of the labels), so both methods flag it and report.json carries its
 * evidence. "hours" (contains): the same answers from both models. "many": twelve different
 * right answers, more than the page lists one by one.
 */
const OPEN = parseItems(
  JSON.stringify([
    {
      id: 'desk',
      domain: 'support',
      system: 'You are the help desk.',
      prompt: 'Label this ticket, billing or shipping: I was charged twice.',
      expected: 'billing',
      grader: { type: 'label', labels: ['billing', 'shipping'] },
    },
    {
      id: 'hours',
      domain: 'support',
      prompt: 'When do we open?',
      expected: ['9'],
      grader: { type: 'contains', any: ['am'] },
    },
    {
      id: 'many',
      domain: 'facts',
      prompt: 'Say when we open, in your words.',
      expected: { at: 9 },
      grader: { type: 'contains', expected: '9' },
    },
  ]),
  'open.json',
).items as OpenItem[];

const DESK_BASE = ['billing', ' Billing. ', ...Array(9).fill('billing'), '**billing**'];
const DESK_CAND = [
  ...Array(8).fill('shipping'),
  'I cannot tell <b>',
  'I cannot tell <b>',
  'shipping\n\nshipping',
  'shipping',
];
const HOURS = [
  'We open at 9 am.',
  'At 9.',
  'We open at\n9   am.',
  'At 9.',
  ...Array(8).fill('9 am'),
];

function openRecord(
  model: string,
  item: OpenItem,
  mode: 'stochastic' | 'greedy',
  k: number,
  text: string,
) {
  return {
    ...record(model, ITEMS[0] as ChoiceItem, mode, k, 'logged'),
    item: item.id,
    domain: item.domain,
    key: `${item.id}#${mode === 'greedy' ? 'greedy' : k}`,
    correct: false,
    grader: 'graders/0:old',
    text,
  };
}

function openRecords() {
  const [desk, hours, many] = OPEN as [OpenItem, OpenItem, OpenItem];
  const stochastic = (model: string, item: OpenItem, texts: readonly string[]) =>
    texts.map((text, k) => openRecord(model, item, 'stochastic', k, text));
  const distinct = Array.from({ length: 12 }, (_, k) => `We open at 9, answer ${k}`);
  return [
    ...stochastic('base', desk, DESK_BASE),
    openRecord('base', desk, 'greedy', 0, 'Billing'),
    ...stochastic('cand', desk, DESK_CAND),
    openRecord('cand', desk, 'greedy', 0, 'shipping'),
    ...stochastic('base', hours, HOURS),
    ...stochastic('cand', hours, HOURS),
    ...stochastic('base', many, distinct),
    ...stochastic('cand', many, distinct),
  ];
}

describe('churnPage with open items', () => {
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'test' },
      { path: ['models', 'candidate'], value: 'cand', source: 'test' },
      { path: ['churn', 'samples'], value: 12, source: 'test' },
      { path: ['checks'], value: ['churn'], source: 'test' },
    ],
  });
  const ctx = checkContext(loaded);
  const definitions = { items: OPEN, file: 'open.json', warnings: [] };
  const section = foldRecords(churnCheck.fold, openRecords(), definitions, ctx);
  const collected = foldRecords(answerFold, openRecords(), definitions, ctx);
  const page = churnPage({ section, collected, definitions, ctx });
  const item = (id: string) => page.items.find((i) => i.id === id);
  const desk = OPEN[0] as OpenItem;

  it('shows the prompt, system prompt, expected answer as written, and the grader', () => {
    expect(item('desk')?.ask).toEqual({
      kind: 'open',
      prompt: 'Label this ticket, billing or shipping: I was charged twice.',
      system: 0,
      expected: 'billing',
      grader: {
        type: 'label',
        name: 'label (2 labels)',
        options: [
          'the answer is the label "billing", of "billing", "shipping"',
          'normalised: case, spaces, wrapping quotes or brackets and a final full stop ignored',
          'an answer none of the labels is wrong and counted off-label',
        ],
        fingerprint: desk.grader.fingerprint,
        labels: true,
      },
    });
    expect(page.systems).toEqual(['You are the help desk.']);
    // The fingerprint is the one report.json names for the item.
    const row =
      section.estimator === 'sampled'
        ? section.comparison?.items.find((r) => r.id === 'desk')
        : undefined;
    expect(row?.graderFingerprint).toBe(desk.grader.fingerprint);
    const hours = item('hours')?.ask;
    expect(hours?.kind === 'open' && [hours.system, hours.expected, hours.grader.options]).toEqual([
      null,
      '["9"]',
      [
        'the answer contains every one of: "9"',
        'the answer contains at least one of: "am"',
        'case ignored',
      ],
    ]);
    const many = item('many')?.ask;
    expect(many?.kind === 'open' && many.expected).toBe('{"at":9}');
  });

  it('counts the answers per distinct text (white space collapsed), graded by the current grader', () => {
    const [base, cand] = item('desk')?.answers ?? [];
    expect(base?.counts).toEqual([
      ['billing', 10, true],
      ['**billing**', 1, true],
      ['Billing.', 1, true],
    ]);
    expect(cand?.counts).toEqual([
      ['shipping', 9, false],
      ['I cannot tell <b>', 2, false, 1],
      ['shipping shipping', 1, false, 1],
    ]);
    expect([base?.offLabel, cand?.offLabel]).toEqual([0, 3]);
    expect(base?.greedy).toEqual({ answer: 'Billing', correct: true, status: 'ok' });
    expect(item('desk')?.x).toEqual([12, 0]);
    expect(item('desk')?.cls).toBe('deteriorated');
    const hours = item('hours')?.answers[0];
    expect(hours?.counts).toEqual([
      ['9 am', 8, true],
      ['At 9.', 2, false],
      ['We open at 9 am.', 2, true],
    ]);
    expect(hours?.offLabel).toBeUndefined();
  });

  it('lists ten distinct answers and counts the others together', () => {
    const many = item('many')?.answers[1];
    expect(many?.counts).toHaveLength(10);
    expect(many?.others).toEqual({ answers: 2, samples: 2, right: 2 });
    const total = (many?.counts ?? []).reduce((s, c) => s + c[1], 0) + (many?.others?.samples ?? 0);
    expect(total).toBe(item('many')?.n?.[1]);
  });

  it('takes a flagged item’s examples from report.json’s evidence, the others’ from the log', () => {
    expect(item('desk')?.answers.map((a) => a?.examples)).toEqual([
      { right: ['billing'], wrong: [], from: 'report' },
      { right: [], wrong: ['shipping'], from: 'report' },
    ]);
    expect(item('hours')?.answers[0]?.examples).toEqual({
      right: ['We open at 9 am.', 'We open at\n9   am.'],
      wrong: ['At 9.'],
      from: 'log',
    });
  });
});

describe('the text budget of open items', () => {
  const desk = OPEN[0] as OpenItem;

  it('counts prompts with the questions; system prompts (each once), expected answers and grader options with the choices', () => {
    const texts = itemTexts(desk);
    expect(texts.question).toBe(desk.prompt);
    expect(texts.details[0]).toBe('billing');
    expect(texts.details).toHaveLength(4);
    // 1,200 items of 4,000-character prompts, over the budget; 1,100 system prompts of 4,000
    // characters, over the other: the last 100 items share the first 100's, counted once.
    const items: OpenItem[] = Array.from({ length: 1_200 }, (_, i) => ({
      ...desk,
      id: `o${i}`,
      prompt: 'p'.repeat(4_000),
      system: `${i % 1_100}`.padEnd(4_000, 's'),
    }));
    const sharing = 100;
    const many = new Map(items.map((item) => [item.id, itemTexts(item)]));
    const flagged = new Set(['o0']);
    const systems = systemTable(items, flagged);
    expect(systems.texts).toHaveLength(1_100);
    const caps = textCaps(many, flagged, systems);
    expect(caps.question).toBe(Math.floor((QUESTION_BUDGET - 4_000) / (1_099 + sharing)));
    const otherDetails = texts.details.reduce((s, t) => s + t.length, 0);
    expect(caps.detail).toBe(Math.floor((DETAIL_BUDGET - 4_000 - 1_200 * otherDetails) / 1_099));
    const cut = askOf(items[1], many.get('o1'), caps, systems);
    if (cut?.kind !== 'open') throw new Error('an open ask expected');
    expect([cut.prompt.length, cut.system]).toEqual([caps.question, 1]);
    const shown = pageSystems(systems, caps);
    // The system prompt of the flagged item stays whole; the others are cut to the cap.
    expect(shown[0]).toBe(items[0]?.system);
    expect(shown[1]).toHaveLength(caps.detail);
    expect(shown[1]?.endsWith('…')).toBe(true);
    // The grader's lines are short: whole under any cap.
    expect(cut.grader.options).toEqual(texts.details.slice(1));
  });
});

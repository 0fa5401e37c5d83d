/**
 * The churn part of report.html from a hand-made log: two models, two items, K = 4, answer
 * texts kept for the first item. The counts per answer, the greedy answer and the examples
 * are read off the records below by hand.
 */
import { describe, expect, it } from 'vitest';
import { churnCheck } from '../../../src/checks/churn/index.js';
import {
  EXAMPLE_LENGTH,
  EXAMPLES_PER_SIDE,
  churnPage,
} from '../../../src/checks/churn/report/page.js';
import type { ChurnItem } from '../../../src/checks/churn/items.js';
import { checkContext } from '../../../src/pipeline/checks.js';
import { loadConfig } from '../../../src/config/load.js';
import { record } from './simulate.js';

const ITEMS: ChurnItem[] = [
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
  const [q1, q2] = ITEMS as [ChurnItem, ChurnItem];
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
  const section = churnCheck.analyse(records(), definitions, ctx);
  const page = churnPage({ section, records: records(), definitions, ctx });
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

  it('writes the domains with their loss test and an overview per model', () => {
    expect(page.domains.map((d) => d.domain).sort()).toEqual(['law', 'math']);
    expect(page.overview.columns).toEqual(['', 'base', 'cand']);
    expect(page.models).toEqual(['base', 'cand']);
  });
});

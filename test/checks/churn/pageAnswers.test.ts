/**
 * How report.html lists the answers of open items within its budget: every answer while they
 * fit, then only those more samples gave, shortened; flagged items first and in full. The
 * lists below are built by hand, their costs worked out from the constants.
 */
import { describe, expect, it } from 'vitest';
import {
  ANSWER_KEY_LENGTH,
  ANSWER_TEXT_BUDGET,
  answerCaps,
  answersOf,
  type Collected,
  MIN_ANSWER_LENGTH,
  OTHERS_COST,
  ROW_COST,
} from '../../../src/checks/churn/report/pageAnswers.js';

/** One model's answers to an item: [text, samples that gave it, right]. */
function collected(answers: readonly [string, number, boolean][]): Collected {
  return {
    counts: new Map(
      answers.map(([answer, count, correct]) => [
        `${correct ? 'r' : 'w'}${answer}`,
        { answer, count, correct, offLabel: false },
      ]),
    ),
    invalid: 0,
    failed: 0,
    offLabel: 0,
    greedy: null,
    letters: null,
    right: [],
    wrong: [],
  };
}

/** A label answer five samples gave, and five long answers given once each. */
const labelAndTalk = (i: number) =>
  collected([
    ['billing', 5, true],
    ...Array.from({ length: 5 }, (_, k): [string, number, boolean] => [
      `${i}-${k} `.padEnd(100, 'x'),
      1,
      false,
    ]),
  ]);

describe('answerCaps', () => {
  it('lists every answer whole while all fit', () => {
    const answers = new Map([['a', [labelAndTalk(0), labelAndTalk(1)]]]);
    expect(answerCaps(answers, new Set(['a']), new Set())).toEqual({
      length: ANSWER_KEY_LENGTH,
      fewest: 1,
    });
  });

  it('drops the answers given once before those given five times, when they do not fit', () => {
    // 10,000 items × 2 models: the label rows cost 20,000 × (7 + ROW_COST) = 460,000 of the
    // room left beside the counts of the others (2,000,000 − 20,000 × OTHERS_COST = 1,040,000);
    // the single answers would cost 100,000 × (MIN_ANSWER_LENGTH + ROW_COST) more.
    const answers = new Map(
      Array.from({ length: 10_000 }, (_, i) => [`o${i}`, [labelAndTalk(i), labelAndTalk(i)]]),
    );
    const open = new Set(answers.keys());
    const room = ANSWER_TEXT_BUDGET - 20_000 * OTHERS_COST;
    expect(20_000 * (7 + ROW_COST)).toBeLessThan(room);
    expect(20_000 * (7 + ROW_COST) + 100_000 * (MIN_ANSWER_LENGTH + ROW_COST)).toBeGreaterThan(
      room,
    );
    const caps = answerCaps(answers, open, new Set());
    expect(caps).toEqual({ length: ANSWER_KEY_LENGTH, fewest: 5 });
    const shown = answersOf(answers.get('o3')?.[0], {
      ...caps,
      cap: caps.length,
      labels: false,
      examples: null,
    });
    expect(shown?.counts).toEqual([['billing', 5, true]]);
    expect(shown?.others).toEqual({ answers: 5, samples: 5, right: 0 });
  });

  it('shortens the listed texts to what is left, never below MIN_ANSWER_LENGTH', () => {
    // 8,000 lists of two 120-character answers given 5 times each: 16,000 rows.
    const answers = new Map(
      Array.from({ length: 4_000 }, (_, i) => {
        const list = () =>
          collected([
            [`${i}a`.padEnd(120, 'y'), 5, true],
            [`${i}b`.padEnd(120, 'z'), 5, false],
          ]);
        return [`o${i}`, [list(), list()]];
      }),
    );
    const room = ANSWER_TEXT_BUDGET - 8_000 * OTHERS_COST - 16_000 * ROW_COST;
    const caps = answerCaps(answers, new Set(answers.keys()), new Set());
    expect(caps).toEqual({ length: Math.floor(room / 16_000), fewest: 1 });
    expect(caps.length).toBeGreaterThanOrEqual(MIN_ANSWER_LENGTH);
    expect(caps.length).toBeLessThan(120);
  });
});

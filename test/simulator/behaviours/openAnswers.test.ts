/**
 * The simulated model on open items: right with its latent probability as the item's own grader
 * judges it, otherwise wrong — plausibly, or malformed at the configured rate — and empty at the
 * invalid rate. Expected shares are the parameters themselves; the bounds are binomial (4 SD).
 */
import { describe, expect, it } from 'vitest';
import { loadItemsFile } from '../../../src/checks/churn/items.js';
import type { OpenItem } from '../../../src/checks/churn/openItems.js';
import { readJson } from '../../../src/graders/json.js';
import { drawOpenAnswer } from '../../../src/simulator/behaviours/openAnswers.js';

const open = loadItemsFile('fixtures/items/demo.yml').items.filter(
  (item): item is OpenItem => item.kind === 'open',
);

function within(observed: number, p: number, n: number): void {
  const sd = Math.sqrt((p * (1 - p)) / n);
  expect(Math.abs(observed - p)).toBeLessThanOrEqual(4 * sd + 1e-9);
}

describe('simulated answers to open items', () => {
  it('every grader type: right with probability p, as its grader judges', () => {
    const n = 400;
    for (const item of open) {
      let right = 0;
      for (let seed = 0; seed < n; seed++) {
        const text = drawOpenAnswer(
          0.7,
          item,
          { model: 'm', seed, temperature: 0.7 },
          {
            invalid: 0,
            malformed: 0.3,
          },
        );
        if (item.grader.grade(text).correct) right++;
      }
      within(right / n, 0.7, n);
    }
  });

  it('wrong answers are malformed at the configured rate: broken JSON, off-label', () => {
    const n = 2000;
    const json = open.find((item) => item.id === 'support-09') as OpenItem;
    const label = open.find((item) => item.id === 'support-05') as OpenItem;
    let broken = 0;
    let offLabel = 0;
    for (let seed = 0; seed < n; seed++) {
      const draw = { model: 'm', seed, temperature: 0.7 };
      const rates = { invalid: 0, malformed: 0.25 };
      if (readJson(drawOpenAnswer(0, json, draw, rates), false) === undefined) broken++;
      if (label.grader.grade(drawOpenAnswer(0, label, draw, rates)).offLabel) offLabel++;
    }
    within(broken / n, 0.25, n);
    within(offLabel / n, 0.25, n);
  });

  it('answers empty at the invalid rate, and the greedy answer follows p ≥ ½', () => {
    const item = open[0] as OpenItem;
    let empty = 0;
    for (let seed = 0; seed < 2000; seed++) {
      const text = drawOpenAnswer(
        0.5,
        item,
        { model: 'm', seed, temperature: 0.7 },
        {
          invalid: 0.1,
          malformed: 0,
        },
      );
      if (text === '') empty++;
    }
    within(empty / 2000, 0.1, 2000);
    const greedy = (p: number) =>
      item.grader.grade(
        drawOpenAnswer(
          p,
          item,
          { model: 'm', seed: 42, temperature: 0 },
          { invalid: 0, malformed: 0 },
        ),
      ).correct;
    expect([greedy(0.49), greedy(0.5), greedy(0.9)]).toEqual([false, true, true]);
  });
});

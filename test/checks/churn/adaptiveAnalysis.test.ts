/**
 * The churn analysis with adaptive sampling, on a log written by hand: items end with
 * different numbers of samples, samples beyond an item's path (a fixed run's) are left out,
 * the item test is the exact test across stages and the domain test takes one stratum per
 * item and stage. Every expected number is computed by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import type { ChoiceItem } from '../../../src/checks/churn/items.js';
import { record, settings, syntheticItems } from './simulate.js';
import type { ChurnCallRecord } from '../../../src/checks/churn/records.js';

const items = syntheticItems({ law: 3 });
const [settled, moved, cut] = items as [ChoiceItem, ChoiceItem, ChoiceItem];
const wrong = (item: ChoiceItem): string => (item.answer === 'A' ? 'B' : 'A');

/** Samples of one model: true = right, false = wrong, from sample 0 on. */
function samples(model: string, item: ChoiceItem, answers: boolean[]): ChurnCallRecord[] {
  return answers.map((right, k) =>
    record(model, item, 'stochastic', k, right ? item.answer : wrong(item)),
  );
}

const design = settings({
  sampling: 'adaptive',
  samplesFirst: 2,
  samplesStep: 2,
  samplesMax: 6,
  settledShare: 0,
  futilityP: 1,
  gate: { ...settings().gate, minDomainItems: 2 },
});

const records = [
  // Both models right twice: pooled 4/4, settled after the first stage. The four later
  // samples (all wrong, as a fixed K = 6 run left them) are not on its path.
  ...samples('base', settled, [true, true, false, false, false, false]),
  ...samples('cand', settled, [true, true, false, false, false, false]),
  // Baseline 1/2, 2/2, 2/2; candidate 0/2 three times: pooled 1/4, then 3/8 — open at each
  // look, it runs to samples-max (6).
  ...samples('base', moved, [true, false, true, true, true, true]),
  ...samples('cand', moved, [false, false, false, false, false, false]),
  // First stage 1/2 and 1/2 (open); of the second stage only the baseline's sample 2 is in the
  // log (an interrupted run): the path is open at 4 samples.
  ...samples('base', cut, [true, false, true]),
  ...samples('cand', cut, [true, false]),
];

describe('analyseChurn with adaptive sampling', () => {
  const section = analyseChurn({
    records,
    items,
    settings: design,
    baseline: 'base',
    candidate: 'cand',
  });
  const row = (item: ChoiceItem) => section.comparison?.items.find((r) => r.id === item.id);

  it('counts each item along its own path', () => {
    expect(row(settled)).toMatchObject({ x: [2, 2], n: [2, 2], excluded: 'ceiling' });
    expect(row(moved)).toMatchObject({ x: [5, 0], n: [6, 6], excluded: null });
    // 2 of 4 planned samples for the candidate: below the 60% valid share.
    expect(row(cut)).toMatchObject({ x: [2, 1], n: [3, 2], excluded: 'low-valid' });
  });

  it('tests an item with the exact law across its stages, not Fisher on the pooled table', () => {
    // Strata (x1, n1, x2, n2): (1,2,0,2), (2,2,0,2), (2,2,0,2). T = Σ x2 = 0.
    // Stage 1: t = 1 of 4, P(x2 = 0) = 1/2; stages 2, 3: t = 2 of 4, P(x2 = 0) = C(2,2)/C(4,2) = 1/6.
    // P(T = 0) = 1/2 · 1/6 · 1/6 = 1/72, P(T = 5) = 1/72 by symmetry, every other T is more
    // likely (P(T = 1) = 9/72): two-sided p = 2/72 = 1/36. Fisher on 5/6 vs 0/6 gives 0.0152.
    expect(row(moved)?.fisherP).toBeCloseTo(1 / 36, 12);
    // The only analysable item: q = p ≤ 0.05, and it fell.
    expect(row(moved)?.fisherBh).toBe('deteriorated');
  });

  it('tests the domain with one stratum per item and stage', () => {
    // The settled item's stratum (2,2,2,2) has one possible table; the moved item's three
    // stages give P(T ≤ 0) = 1/72. The cut item (low valid share) stays out.
    const law = section.comparison?.domains.find((d) => d.domain === 'law');
    expect(law?.test?.items).toBe(2);
    expect(law?.test?.pLoss).toBeCloseTo(1 / 72, 12);
  });

  it('says what the design took and where each item stopped', () => {
    expect(section.samples).toBe(6);
    expect(section.sampling).toEqual({
      mode: 'adaptive',
      samplesFirst: 2,
      samplesStep: 2,
      samplesMax: 6,
      settledShare: 0,
      futility: null,
      // Efficacy stop at α / items = 0.05 / 3; no look of the moved item reaches it (its
      // two-stage p-value is 1/6), so its last look keeps the staged test's 1/36.
      decided: { pAtMost: 0.05 / 3 },
      // Recorded samples on the paths: 2 + 2, 6 + 6, 3 + 2 = 21 of 3 × 2 × 6 = 36.
      requests: { used: 21, fixed: 36, saved: 15, savedShare: 15 / 36 },
      stopped: [
        { samples: 2, items: 1, settled: 1, decided: 0, futility: 0, samplesMax: 0, open: 0 },
        { samples: 4, items: 1, settled: 0, decided: 0, futility: 0, samplesMax: 0, open: 1 },
        { samples: 6, items: 1, settled: 0, decided: 0, futility: 0, samplesMax: 1, open: 0 },
      ],
    });
  });

  it('reads the same records at a fixed K as before: every sample counts', () => {
    const fixed = analyseChurn({
      records,
      items,
      settings: settings({ samples: 6 }),
      baseline: 'base',
      candidate: 'cand',
    });
    expect(fixed.sampling).toBeUndefined();
    expect(fixed.comparison?.items.find((r) => r.id === settled.id)?.n).toEqual([6, 6]);
  });
});

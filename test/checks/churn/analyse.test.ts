import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import { record, settings, syntheticItems } from './simulate.js';
import type { ChurnCallRecord } from '../../../src/checks/churn/records.js';
import { countedRecords } from '../../../src/sampleLog/index.js';

/** Records for one model: item i gets `correct[i]` correct answers out of K (valid) samples. */
function recordsFor(
  model: string,
  items: ReturnType<typeof syntheticItems>,
  correct: number[],
  samples: number,
  greedy: boolean[],
) {
  const out: ChurnCallRecord[] = [];
  items.forEach((item, i) => {
    for (let k = 0; k < samples; k++) {
      out.push(
        record(model, item, 'stochastic', k, k < (correct[i] as number) ? item.answer : 'Z'),
      );
    }
    out.push(record(model, item, 'greedy', 0, greedy[i] ? item.answer : 'Z'));
  });
  return out;
}

describe('analyseChurn on a small hand-checked pair (K = 4)', () => {
  const items = syntheticItems({ law: 3, physics: 3 });
  // correct counts out of 4:      law-0 law-1 law-2 phys-0 phys-1 phys-2
  const base = recordsFor('b', items, [4, 4, 2, 0, 1, 2], 4, [
    true,
    true,
    false,
    false,
    false,
    true,
  ]);
  const cand = recordsFor('c', items, [0, 4, 2, 4, 3, 4], 4, [false, true, true, true, true, true]);
  const section = analyseChurn({
    records: [...base, ...cand],
    items,
    settings: settings({ samples: 4 }),
    baseline: 'b',
    candidate: 'c',
  });
  const c = section.comparison;

  it('computes accuracies and the paired Δ', () => {
    // Baseline p = 1, 1, .5, 0, .25, .5 → mean 3.25/6 = 0.541666…
    // Candidate p = 0, 1, .5, 1, .75, 1 → mean 4.25/6 = 0.708333…; Δ = 1/6.
    expect(section.baseline.accuracy.mean).toBeCloseTo(3.25 / 6, 12);
    expect(section.candidate?.accuracy.mean).toBeCloseTo(4.25 / 6, 12);
    expect(c?.delta.mean).toBeCloseTo(1 / 6, 12);
    expect(c?.delta.n).toBe(6);
    // Ceiling: law-1 is at 1 in both; everything else is analysable.
    expect(section.itemCounts).toEqual({
      total: 6,
      analysable: 5,
      lowValid: 0,
      floor: 0,
      ceiling: 1,
    });
    expect(c?.items[1]?.excluded).toBe('ceiling');
  });

  it('compares greedy answers with McNemar', () => {
    // Greedy baseline ✓✓✗✗✗✓ (3/6), candidate ✗✓✓✓✓✓ (5/6): right→wrong 1 (law-0),
    // wrong→right 3 (law-2, phys-0, phys-1). m = 4, k = 1: P(X ≤ 1) = 5/16, P(X = 1) = 4/16
    // → exact p = 10/16 = 0.625, mid-p = 10/16 − 4/16 = 0.375.
    expect(c?.greedy).toEqual({
      items: 6,
      baselineAccuracy: 0.5,
      candidateAccuracy: 5 / 6,
      delta: 2 / 6,
      worse: 1,
      better: 3,
      midP: expect.closeTo(0.375, 12),
      exactP: expect.closeTo(0.625, 12),
    });
  });

  it('tabulates domains and reversals from the gate method', () => {
    // With K = 4 the exact test cannot reach q ≤ 0.05 (4/4 vs 0/4: p = 2/C(8,4) = 2/70 and
    // BH over 5 items lifts it to 5·(2/70)/2 > 0.05), so method B flags nothing here.
    expect(c?.fisherBh.improved).toBe(0);
    expect(c?.fisherBh.deteriorated).toBe(0);
    expect(c?.domains.map((d) => [d.domain, d.items, d.delta])).toEqual([
      ['law', 3, expect.closeTo(-1 / 3, 12)],
      ['physics', 3, expect.closeTo(2 / 3, 12)],
    ]);
    expect(c?.reversals).toEqual([]);
  });

  it('is plain JSON and deterministic', () => {
    const again = analyseChurn({
      records: [...cand, ...base].reverse(),
      items,
      settings: settings({ samples: 4 }),
      baseline: 'b',
      candidate: 'c',
    });
    expect(JSON.parse(JSON.stringify(again))).toEqual(JSON.parse(JSON.stringify(section)));
  });
});

describe('log handling', () => {
  const items = syntheticItems({ law: 2 });

  it('lets a later answer replace an error, never the reverse, and counts statuses', () => {
    const first = record('b', items[0]!, 'stochastic', 0, null, 'error');
    const answered = record('b', items[0]!, 'stochastic', 0, 'A');
    const lateError = record('b', items[0]!, 'stochastic', 0, null, 'error');
    const timeout = record('b', items[0]!, 'stochastic', 1, null, 'timeout');
    const invalid = record('b', items[1]!, 'stochastic', 0, null, 'invalid');
    // The records that count, as the log reader hands them over.
    const section = analyseChurn({
      records: countedRecords([first, answered, lateError, timeout, invalid]).records,
      items,
      settings: settings({ samples: 2 }),
      baseline: 'b',
      candidate: null,
    });
    expect(section.baseline.requests).toEqual({
      total: 3,
      ok: 1,
      invalid: 1,
      timeout: 1,
      error: 0,
    });
    expect(section.baseline.timeoutShare).toBeCloseTo(1 / 3, 12);
    // Only item 0 has a valid sample, and it is correct.
    expect(section.baseline.itemsAnswered).toBe(1);
    expect(section.baseline.accuracy.mean).toBe(1);
    expect(section.comparison).toBeNull();
  });

  it('warns about records of unknown items and samples beyond K', () => {
    const stranger = { ...record('b', items[0]!, 'stochastic', 0, 'A'), item: 'gone' };
    const beyond = record('b', items[0]!, 'stochastic', 7, 'A');
    const section = analyseChurn({
      records: [stranger, beyond],
      items,
      settings: settings({ samples: 2 }),
      baseline: 'b',
      candidate: null,
    });
    expect(section.warnings).toEqual([
      '1 records name items that are not in the item file (ignored)',
      '1 records have a sample index at or beyond K = 2 (ignored)',
    ]);
  });
});

describe('domain-clustered interval', () => {
  it('resamples whole domains when asked', () => {
    const items = syntheticItems({ a: 5, b: 5, c: 5, d: 5 });
    const counts = (shift: number) =>
      items.map((_, i) => Math.max(0, Math.min(10, 5 + (i % 3) + shift * Math.floor(i / 5))));
    const greedy = items.map(() => true);
    const records = [
      ...recordsFor('b', items, counts(0), 10, greedy),
      ...recordsFor('c', items, counts(1), 10, greedy),
    ];
    const byItems = analyseChurn({
      records,
      items,
      settings: settings(),
      baseline: 'b',
      candidate: 'c',
    }).comparison?.delta;
    const byDomains = analyseChurn({
      records,
      items,
      settings: settings({ deltaInterval: 'domains' }),
      baseline: 'b',
      candidate: 'c',
    }).comparison?.delta;
    expect(byDomains?.interval).toBe('domains');
    expect(byDomains?.mean).toBeCloseTo(byItems?.mean ?? Number.NaN, 12);
    // Domain shifts of 0, .1, .2, .3 (capped at 10/10): the domain-level spread is what
    // drives the interval, which comes out wider than the item-level one.
    expect((byDomains?.high ?? 0) - (byDomains?.low ?? 0)).toBeGreaterThan(
      (byItems?.high ?? 0) - (byItems?.low ?? 0),
    );
  });
});

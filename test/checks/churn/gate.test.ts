import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import { gateChurn, deteriorationLimit } from '../../../src/checks/churn/gate.js';
import type { SampledChurnSection } from '../../../src/checks/churn/section.js';
import { params, record, settings, simulateModel, syntheticItems } from './simulate.js';

/** A pair where the candidate breaks 12 law items outright and improves 20 others. */
function lawRegression(): SampledChurnSection {
  const items = syntheticItems({ law: 40, physics: 40, economics: 40 });
  const shifts: Record<string, number> = {};
  items.forEach((item, i) => {
    if (item.domain === 'law' && i % 40 < 12) shifts[item.id] = -8;
    if (item.domain !== 'law' && i % 4 === 0) shifts[item.id] = 8;
  });
  // Law starts easy (p ≈ 0.9) and the other domains hard (p ≈ 0.2), so both the law losses
  // and the other gains are large enough for K = 10 to see.
  const domains = { law: 2.2, physics: -1.4, economics: -1.4 };
  const base = params({ accuracy: 0.5, spread: 0.3, domains });
  const cand = params({ accuracy: 0.5, spread: 0.3, domains, itemShifts: shifts });
  const records = [
    ...simulateModel('b', items, base, 10, 1000),
    ...simulateModel('c', items, cand, 10, 2000),
  ];
  return analyseChurn({ records, items, settings: settings(), baseline: 'b', candidate: 'c' });
}

describe('gateChurn', () => {
  const section = lawRegression();
  const c = section.comparison;

  it('fails on a domain whose net loss is significant and at least max-domain-loss points', () => {
    const findings = gateChurn(section, settings());
    const loss = findings.filter((f) => f.rule === 'domain-loss');
    const law = c?.domains.find((d) => d.domain === 'law');
    expect(loss).toHaveLength(1);
    expect(law?.loss).toBe(true);
    expect(law?.test?.adjustedLoss).toBeLessThanOrEqual(0.05 / 3 / 2);
    const fell = (-(law?.delta ?? 0) * 100).toFixed(1).replace(/\.0$/, '');
    expect(loss[0]).toMatchObject({ severity: 'fail', values: { domain: 'law', reversal: false } });
    expect(loss[0]?.message).toMatch(
      new RegExp(
        `^law: accuracy fell ${fell} points \\(net loss over 40 items, exact test p = [0-9.e−]+, Holm-adjusted [0-9.e−]+ ≤ 0\\.0083\\), at or above the limit of 5 points; overall change 3 points up, not significant by the exact test on all items$`,
      ),
    );
    // The overall gain is not significant here (one-sided p ≈ 0.04 > 0.025): no reversal.
    expect(c?.domainTest.overall.direction).toBeNull();
    expect(c?.reversals).toEqual([]);
  });

  it('warns only when the significant loss is smaller than max-domain-loss', () => {
    const law = c?.domains.find((d) => d.domain === 'law');
    const lenient = settings({
      gate: { ...settings().gate, maxDomainLoss: -(law?.delta ?? 0) * 100 + 1 },
    });
    expect(gateChurn(section, lenient).find((f) => f.rule === 'domain-loss')?.severity).toBe(
      'warn',
    );
  });

  it('states observed deteriorations beside the no-change expectation', () => {
    const rule = gateChurn(section, settings()).find((f) => f.rule === 'max-deteriorated');
    const d = c?.fisherBh.deteriorated ?? -1;
    // 120 items, default limit 5% → 6 items.
    expect(d).toBeGreaterThan(6);
    expect(rule?.severity).toBe('fail');
    expect(rule?.message).toMatch(
      new RegExp(
        `^${d} items reliably worse \\(q ≤ 0\\.05\\), above the limit \\(5% of 120 = 6\\), above what two identical models reach \\([0-9.]+, the null's upper quantile\\); two identical models give [0-9.]+ on average \\(95th percentile \\d+\\)$`,
      ),
    );
    const relaxed = settings({ gate: { ...settings().gate, maxDeteriorated: 50 } });
    expect(gateChurn(section, relaxed).find((f) => f.rule === 'max-deteriorated')?.severity).toBe(
      'info',
    );
  });

  it('does not fail a count that two identical models reach (the RCI null calibration)', () => {
    if (!c) throw new Error('comparison expected');
    const noisy: SampledChurnSection = {
      ...section,
      comparison: {
        ...c,
        fisherBh: {
          ...c.fisherBh,
          deteriorated: 9,
          expected: {
            ...c.fisherBh.expected,
            deteriorated: { mean: 6, p95: 9, upper: 12 },
          },
        },
      },
    };
    const rule = gateChurn(noisy, settings()).find((f) => f.rule === 'max-deteriorated');
    expect(rule?.severity).toBe('info');
    expect(rule?.message).toContain(
      'above the limit (5% of 120 = 6), within what two identical models reach (12',
    );
  });

  it('tests no domain with fewer than min-domain-items items', () => {
    const strict = settings({ gate: { ...settings().gate, minDomainItems: 41 } });
    const items = syntheticItems({ law: 40, physics: 40, economics: 40 });
    const base = params({ accuracy: 0.5, spread: 0.3 });
    const records = [
      ...simulateModel('b', items, base, 10, 1000),
      ...simulateModel('c', items, base, 10, 2000),
    ];
    const s = analyseChurn({ records, items, settings: strict, baseline: 'b', candidate: 'c' });
    expect(s.comparison?.domains.every((d) => d.test === null && !d.loss)).toBe(true);
  });

  it('is inconclusive when too many requests timed out or were invalid', () => {
    const perturbed: SampledChurnSection = {
      ...section,
      candidate: section.candidate
        ? { ...section.candidate, timeoutShare: 0.08, invalidShare: 0.2 }
        : null,
    };
    const findings = gateChurn(perturbed, settings());
    expect(findings.filter((f) => f.severity === 'inconclusive').map((f) => f.message)).toEqual([
      'c: 8% of churn requests timed out (limit 5%); the comparison is not trusted',
      'c: 20% of churn answers were invalid (limit 10%); check num-predict and think',
    ]);
  });

  it('warns when the whole Δ interval is below zero', () => {
    if (!c) throw new Error('comparison expected');
    const worse: SampledChurnSection = {
      ...section,
      comparison: { ...c, delta: { ...c.delta, mean: -0.031, low: -0.05, high: -0.012 } },
    };
    const warning = gateChurn(worse, settings()).find((f) => f.rule === 'aggregate-delta');
    expect(warning).toMatchObject({
      severity: 'warn',
      message: 'overall accuracy fell 3.1 points (95% CI −5 to −1.2 points)',
    });
  });

  it('reads the deterioration limit as a count or a share', () => {
    expect(deteriorationLimit(7, 400)).toEqual({ limit: 7, label: '7' });
    expect(deteriorationLimit('2.5%', 400)).toEqual({ limit: 10, label: '2.5% of 400 = 10' });
    // 29% of 100 is 29 items; 0.29 × 100 would be 28.999999999999996 in floating point.
    expect(deteriorationLimit('29%', 100)).toEqual({ limit: 29, label: '29% of 100 = 29' });
  });

  it('fails only above the limit: 29 deteriorations do not exceed 29% of 100 items', () => {
    if (!c) throw new Error('comparison expected');
    const withDeteriorations = (deteriorated: number): SampledChurnSection => ({
      ...section,
      itemCounts: { ...section.itemCounts, total: 100 },
      comparison: { ...c, fisherBh: { ...c.fisherBh, deteriorated } },
    });
    const share = settings({ gate: { ...settings().gate, maxDeteriorated: '29%' } });
    const severity = (deteriorated: number) =>
      gateChurn(withDeteriorations(deteriorated), share).find((f) => f.rule === 'max-deteriorated')
        ?.severity;
    expect(severity(29)).toBe('info');
    expect(severity(30)).toBe('fail');
  });
});

describe('domain-loss on hand-written counts', () => {
  // "lost": 10 items at 10/10 fall to 5/10. "mixed": 10 items fall 10/10 → 5/10 and 10 rise
  // 0/10 → 5/10 (no net change). "settled": 10 items at 10/10 in both models.
  const items = syntheticItems({ lost: 10, mixed: 20, settled: 10 });
  const counts = (item: (typeof items)[number], i: number): [number, number] => {
    if (item.domain === 'lost') return [10, 5];
    if (item.domain === 'settled') return [10, 10];
    return i % 2 === 0 ? [10, 5] : [0, 5];
  };
  const records = items.flatMap((item, i) => {
    const [b, c] = counts(item, i);
    const wrong = item.answer === 'A' ? 'B' : 'A';
    return Array.from({ length: 10 }, (_, k) => [
      record('b', item, 'stochastic', k, k < b ? item.answer : wrong),
      record('c', item, 'stochastic', k, k < c ? item.answer : wrong),
    ]).flat();
  });
  const section = analyseChurn({
    records,
    items,
    settings: settings(),
    baseline: 'b',
    candidate: 'c',
  });
  const row = (domain: string) => section.comparison?.domains.find((d) => d.domain === domain);

  it('gives a lost domain the exact p of its items all at their lowest table', () => {
    // Each item: t = 15 correct of 20, P(x2 = 5 | t = 15) = C(10,5)·C(10,10)/C(20,15) = 252/15504.
    const p = (252 / 15504) ** 10;
    expect((row('lost')?.test?.pLoss ?? 0) / p).toBeCloseTo(1, 10);
    expect(row('lost')?.loss).toBe(true);
  });

  it('does not call a domain whose items move both ways with no net change a loss', () => {
    // Σ x2 = 100 = its null mean, and the null is symmetric about it: p > 0.5 both ways.
    expect(row('mixed')?.delta).toBe(0);
    expect(row('mixed')?.test?.pLoss).toBeGreaterThan(0.5);
    expect(row('mixed')?.test?.pGain).toBeGreaterThan(0.5);
    expect(row('mixed')?.loss).toBe(false);
  });

  it('draws no certainty from settled items', () => {
    expect(row('settled')?.test).toMatchObject({ informative: 0, pLoss: 1, pGain: 1 });
  });
});

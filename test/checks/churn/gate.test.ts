import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import { churnGate, deteriorationLimit } from '../../../src/checks/churn/gate.js';
import type { SampledChurnSection } from '../../../src/checks/churn/section.js';
import { params, settings, simulateModel, syntheticItems } from './simulate.js';

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

describe('churnGate', () => {
  const section = lawRegression();
  const c = section.comparison;

  it('fails on a domain that got reliably worse while the aggregate rose', () => {
    const findings = churnGate(section, settings());
    const reversal = findings.find((f) => f.rule === 'domain-reversal');
    const law = c?.domains.find((d) => d.domain === 'law');
    expect(law?.deteriorated).toBeGreaterThanOrEqual(3);
    const rose = ((c?.delta.mean ?? 0) * 100).toFixed(1).replace(/\.0$/, '');
    expect(reversal).toMatchObject({
      severity: 'fail',
      message: `law: ${law?.deteriorated} items reliably worse, ${law?.improved} better, while overall accuracy rose ${rose} points`,
    });
  });

  it('states observed deteriorations beside the no-change expectation', () => {
    const rule = churnGate(section, settings()).find((f) => f.rule === 'max-deteriorated');
    const d = c?.fisherBh.deteriorated ?? -1;
    // 120 items, default limit 5% → 6 items.
    expect(d).toBeGreaterThan(6);
    expect(rule?.severity).toBe('fail');
    expect(rule?.message).toMatch(
      new RegExp(
        `^${d} items reliably worse \\(q ≤ 0\\.05\\), above the limit \\(5% of 120 = 6\\); two identical models give [0-9.]+ on average \\(95th percentile \\d+\\)$`,
      ),
    );
    const relaxed = settings({ gate: { ...settings().gate, maxDeteriorated: 50 } });
    expect(churnGate(section, relaxed).find((f) => f.rule === 'max-deteriorated')?.severity).toBe(
      'info',
    );
  });

  it('needs min-domain-items deteriorations before a reversal fails', () => {
    const law = c?.domains.find((d) => d.domain === 'law');
    const strict = settings({
      gate: { ...settings().gate, minDomainItems: (law?.deteriorated ?? 0) + 1 },
    });
    expect(churnGate(section, strict).find((f) => f.rule === 'domain-reversal')?.severity).toBe(
      'warn',
    );
  });

  it('is inconclusive when too many requests timed out or were invalid', () => {
    const perturbed: SampledChurnSection = {
      ...section,
      candidate: section.candidate
        ? { ...section.candidate, timeoutShare: 0.08, invalidShare: 0.2 }
        : null,
    };
    const findings = churnGate(perturbed, settings());
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
    const warning = churnGate(worse, settings()).find((f) => f.rule === 'aggregate-delta');
    expect(warning).toMatchObject({
      severity: 'warn',
      message: 'overall accuracy fell 3.1 points (95% CI -5 to -1.2 points)',
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
      churnGate(withDeteriorations(deteriorated), share).find((f) => f.rule === 'max-deteriorated')
        ?.severity;
    expect(severity(29)).toBe('info');
    expect(severity(30)).toBe('fail');
  });
});

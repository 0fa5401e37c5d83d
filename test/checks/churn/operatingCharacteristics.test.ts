/**
 * A fast subset of `npm run oc` for churn (bench/oc/churn.ts): a few runs of each acceptance
 * scenario, drawn from a known truth and pushed through the real analysis and gate. Few runs,
 * but each scenario's rate is far from the wrong side: a rule that counts moved items instead
 * of the net change, or fails identical models, or misses a 30-point loss, fails here.
 */
import { describe, expect, it } from 'vitest';
import { churnCheck } from '../../../src/checks/churn/index.js';
import {
  contextFor,
  DEFAULT_GENERATOR,
  OPEN_GENERATOR,
  OTHER_GENERATORS,
  runOnce,
} from '../../../bench/oc/churn.js';

const lawNamed = (
  findings: { rule: string; severity: string; values?: Record<string, unknown> }[],
) =>
  findings.some(
    (f) => f.rule === 'domain-loss' && f.severity !== 'info' && f.values?.domain === 'law',
  );

describe('churn operating characteristics (fast subset)', () => {
  const ctx = contextFor(DEFAULT_GENERATOR);

  it('passes two identical models, with either method', () => {
    const rci = contextFor(DEFAULT_GENERATOR, 'rci');
    for (let seed = 0; seed < 2; seed++) {
      const { findings } = runOnce(100 + seed, DEFAULT_GENERATOR, 'no change', ctx);
      expect(findings.filter((f) => f.severity === 'fail' || f.severity === 'warn')).toEqual([]);
      const rciRun = runOnce(200 + seed, DEFAULT_GENERATOR, 'no change', rci);
      expect(rciRun.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    }
  });

  it('names and fails a domain that fell 30 points while the overall rose', () => {
    for (let seed = 0; seed < 3; seed++) {
      const { findings } = runOnce(300 + seed, DEFAULT_GENERATOR, 'law −30', ctx);
      expect(lawNamed(findings)).toBe(true);
      expect(findings.some((f) => f.rule === 'domain-loss' && f.severity === 'fail')).toBe(true);
    }
  });

  it('names law when its 10 items lose 0.5 and 20 others gain 0.5, also under 80% settled items', () => {
    const settled = OTHER_GENERATORS.find((g) => g.difficulty.kind === 'mixture');
    if (!settled) throw new Error('mixture generator expected');
    for (let seed = 0; seed < 2; seed++) {
      expect(lawNamed(runOnce(400 + seed, DEFAULT_GENERATOR, '±0.5', ctx).findings)).toBe(true);
      expect(lawNamed(runOnce(450 + seed, settled, '±0.5', contextFor(settled)).findings)).toBe(
        true,
      );
    }
  });

  it('open items: answers graded from their texts pass identical models and name law', () => {
    const ctx = contextFor(OPEN_GENERATOR);
    const same = runOnce(600, OPEN_GENERATOR, 'no change', ctx);
    expect(same.findings.filter((f) => f.severity === 'fail' || f.severity === 'warn')).toEqual([]);
    // Every answer of both models (300 items × (10 + greedy) × 2) graded from its text.
    if (same.section.estimator !== 'sampled') throw new Error('sampled expected');
    expect(same.section.openItems?.answers.graded).toBe(300 * 11 * 2);
    expect(same.section.openItems?.graders.map((g) => g.items)).toEqual([50, 50, 50, 50, 50, 50]);
    const lost = runOnce(601, OPEN_GENERATOR, 'law −30', ctx);
    expect(lawNamed(lost.findings)).toBe(true);
    expect(lost.findings.some((f) => f.rule === 'domain-loss' && f.severity === 'fail')).toBe(true);
  });

  it('does not call a domain a loss when 10 items gain 0.5 and 10 lose 0.5', () => {
    for (let seed = 0; seed < 3; seed++) {
      const { findings, section } = runOnce(500 + seed, DEFAULT_GENERATOR, 'law ±0.5 no net', ctx);
      expect(lawNamed(findings)).toBe(false);
      // Items did move both ways: 20 items by 0.5 are 10 points of |Δp| in the truth.
      const moved = (section.comparison?.items ?? [])
        .filter((row) => row.domain === 'law')
        .reduce((sum, row) => sum + Math.abs(row.delta ?? 0), 0);
      expect(moved).toBeGreaterThan(5);
    }
  });

  it('states each rule as a test: false-alarm share and smallest detected change', () => {
    const { section } = runOnce(600, DEFAULT_GENERATOR, 'no change', ctx);
    const cards = churnCheck.rules?.(section, ctx) ?? [];
    const byRule = new Map(cards.map((c) => [c.rule, c]));
    // 0.05 over three checks, half each to the two failing rules.
    expect(byRule.get('domain-loss')?.falseAlarmRate).toBeCloseTo(0.05 / 6, 12);
    expect(byRule.get('max-deteriorated')?.falseAlarmRate).toBeCloseTo(0.05 / 6, 12);
    expect(byRule.get('domain-loss')?.detects).toMatch(
      /^at K = 10 a domain of 60 items losing \d+(\.\d)? points; it fails from 5 points/,
    );
    const failing = cards.reduce((sum, c) => sum + c.falseAlarmRate, 0);
    expect(failing).toBeLessThanOrEqual(0.05 / 3 + 1e-12);
  });
});

/**
 * The comparison behind the golden test: it must see a changed number, class, reason or
 * length, name the path and both values, and let through only what its lists allow.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  compareReports,
  formatDifferences,
  formatPath,
  parsePattern,
} from '../support/compareReports.js';
import { GOLDEN_ROOT } from '../support/goldenCase.js';

interface DemoReport {
  createdAt: string;
  headline: { personaAccuracy: number };
  verdict: {
    status: string;
    reasons: { rule: string; message: string; values: Record<string, number> }[];
  };
  checks: {
    churn: {
      baseline: { reliability: number };
      comparison: { items: { id: string; fisherP: number; fisherBh: string }[] };
    };
  };
}

const demo = (): DemoReport =>
  JSON.parse(readFileSync(path.join(GOLDEN_ROOT, 'demo', 'report.json'), 'utf8')) as DemoReport;

describe('compareReports', () => {
  it('finds nothing between a report and itself', () => {
    expect(compareReports(demo(), demo())).toEqual([]);
  });

  it('sees a p-value moved by a millionth, with its path, both values and the item', () => {
    const actual = demo();
    const item = actual.checks.churn.comparison.items[2];
    if (!item) throw new Error('the demo report lists fewer than 3 items');
    const before = item.fisherP;
    item.fisherP = before * (1 + 1e-6);
    const differences = compareReports(demo(), actual);
    expect(differences).toEqual([
      {
        path: 'checks.churn.comparison.items[2].fisherP',
        where: `checks.churn.comparison.items[2] is id ${item.id}`,
        expected: before,
        actual: before * (1 + 1e-6),
        what: 'value',
      },
    ]);
    expect(formatDifferences(differences)).toContain(`expected ${before}`);
  });

  it('lets a number through within a relative 1e-9, and zero against float noise', () => {
    const actual = demo();
    actual.checks.churn.baseline.reliability *= 1 + 1e-10;
    const zero = { ...demo(), noise: 0 };
    expect(compareReports(demo(), actual)).toEqual([]);
    expect(compareReports(zero, { ...demo(), noise: 5.6e-17 })).toEqual([]);
    expect(compareReports(zero, { ...demo(), noise: 1e-12 })).toHaveLength(1);
  });

  it("sees a class, a status, a reason's value, a missing and an extra field", () => {
    const actual = demo() as DemoReport & { extra?: number };
    const item = actual.checks.churn.comparison.items[0];
    const reason = actual.verdict.reasons[0];
    if (!item || !reason) throw new Error('the demo report has no item or no reason');
    item.fisherBh = item.fisherBh === 'improved' ? 'unchanged' : 'improved';
    actual.verdict.status = 'pass';
    const [key, value] = Object.entries(reason.values).find(([, v]) => typeof v === 'number') ?? [];
    if (key === undefined || value === undefined) throw new Error('the first reason has no number');
    reason.values[key] = value + 1;
    delete (actual.headline as Partial<DemoReport['headline']>).personaAccuracy;
    actual.extra = 1;
    const paths = compareReports(demo(), actual).map((d) => `${d.path}: ${d.what}`);
    expect(paths).toEqual([
      'checks.churn.comparison.items[0].fisherBh: value',
      'headline.personaAccuracy: missing',
      'verdict.status: value',
      `verdict.reasons[0].values.${key}: value`,
      'extra: extra field',
    ]);
  });

  it("ignores the report's time and tool version, and a reason's wording, nothing else", () => {
    const actual = demo();
    actual.createdAt = '2000-01-01T00:00:00.000Z';
    const reason = actual.verdict.reasons[0];
    if (!reason) throw new Error('the demo report has no reason');
    reason.message = 'reworded';
    expect(compareReports(demo(), actual)).toEqual([]);
    reason.rule = 'renamed';
    expect(compareReports(demo(), actual).map((d) => d.path)).toEqual(['verdict.reasons[0].rule']);
  });

  it('reports a shorter list by its length and compares what both hold', () => {
    const actual = demo();
    actual.checks.churn.comparison.items.pop();
    const differences = compareReports(demo(), actual);
    expect(differences.map((d) => d.what)).toEqual(['length']);
    expect(differences[0]?.path).toBe('checks.churn.comparison.items');
  });

  it('applies a stated tolerance only where it is listed', () => {
    const expected = { checks: { a: { estimate: 0.5, other: 0.5 } } };
    const actual = { checks: { a: { estimate: 0.51, other: 0.51 } } };
    const tolerances = [{ path: 'checks.*.estimate', absolute: 0.02 }];
    expect(compareReports(expected, actual, { tolerances }).map((d) => d.path)).toEqual([
      'checks.a.other',
    ]);
  });

  it('reads path patterns with wildcards and odd keys', () => {
    expect(parsePattern('a.b[*].c["x y"]')).toEqual(['a', 'b', '*', 'c', 'x y']);
    expect(parsePattern('**.latencyMs[2]')).toEqual(['**', 'latencyMs', 2]);
    expect(formatPath(['run', 'promptHashes', 'churn (v1)', 0])).toBe(
      'run.promptHashes["churn (v1)"][0]',
    );
    const ignored = [{ path: '**.meanLatencyMs' }];
    const expected = { run: { requests: [{ meanLatencyMs: 1, ok: 3 }] } };
    const actual = { run: { requests: [{ meanLatencyMs: 2, ok: 4 }] } };
    expect(compareReports(expected, actual, { ignored }).map((d) => d.path)).toEqual([
      'run.requests[0].ok',
    ]);
  });
});

import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import type { DragonSection } from '../../src/checks/dragon/section.js';
import { buildReport } from '../../src/report/build.js';
import { headlineOf } from '../../src/checks/list.js';
import { REPORT_SCHEMA } from '../../src/report/schema.js';
import { TOOL_VERSION } from '../../src/version.js';
import { FINDINGS, constructedReport, fromJson, runMetadata } from './fixtures.js';

describe('buildReport', () => {
  it('stamps schema, tool and time, keeps the sections and decides the verdict', () => {
    const report = constructedReport();
    expect(report.schema).toBe(REPORT_SCHEMA);
    expect(report.tool).toEqual({ name: 'model-gate', version: TOOL_VERSION });
    expect(report.createdAt).toBe('2025-01-02T03:04:05.000Z');
    expect(Object.keys(report.checks)).toEqual(['churn', 'dragon', 'personas']);
    expect(report.verdict.status).toBe('fail');
    expect(report.verdict.reasons.map((r) => r.rule)).toEqual([
      'domain-reversal',
      'accuracy-drop',
      'ece-increase',
    ]);
  });

  it('takes the headline from the sections: candidate accuracy, both ECEs', () => {
    expect(constructedReport().headline).toEqual({
      churnRate: 0.275,
      deteriorated: 8,
      reversals: ['law', 'a | b | c'],
      eceBaseline: 0.061,
      eceCandidate: 0.193,
      personaAccuracy: 0.72,
    });
  });

  it('gives nulls for checks that did not run or sections that lack a number', () => {
    expect(headlineOf(CHECKS, {})).toEqual({
      churnRate: null,
      deteriorated: null,
      reversals: [],
      eceBaseline: null,
      eceCandidate: null,
      personaAccuracy: null,
    });
    const single = headlineOf(CHECKS, {
      dragon: fromJson({ check: 'dragon', baseline: { ece: { value: 0.1 } }, candidate: null }),
      personas: fromJson({ check: 'personas', models: [{ role: 'baseline', accuracy: 0.5 }] }),
      churn: fromJson({
        check: 'churn',
        method: 'rci',
        comparison: { rci: { churnRate: 'high', deteriorated: 3 }, reversals: [3, 'law'] },
      }),
    });
    expect(single).toMatchObject({
      eceBaseline: 0.1,
      eceCandidate: null,
      personaAccuracy: 0.5,
      churnRate: null,
      deteriorated: 3,
      reversals: ['law'],
    });
  });

  it('writes NaN and Infinity as null and says where, instead of losing them silently', () => {
    const report = buildReport({
      run: runMetadata(),
      sections: {
        dragon: fromJson({ check: 'dragon' }),
      },
      findings: [{ ...FINDINGS[2]!, values: { ece: Number.NaN } }],
      createdAt: new Date(Date.UTC(2025, 0, 2)),
    });
    expect(report.createdAt).toBe('2025-01-02T00:00:00.000Z');
    expect(report.verdict.reasons[0]?.values).toEqual({ ece: null });
    expect(report.run.warnings).toEqual(['findings[0].values.ece was NaN; written as null']);

    const dragon: DragonSection = fromJson({ check: 'dragon' });
    dragon.walls = Number.POSITIVE_INFINITY;
    const withInfinity = buildReport({
      run: runMetadata(),
      sections: { dragon },
      findings: [],
      createdAt: '2025-01-02T00:00:00Z',
    });
    expect(withInfinity.run.warnings).toEqual([
      'checks.dragon.walls was Infinity; written as null',
    ]);
    expect(JSON.parse(JSON.stringify(withInfinity))).toEqual(withInfinity);
  });
});

import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { glanceCharts } from '../../src/report/glance.js';
import { renderSummary } from '../../src/report/summary.js';
import { allTokens } from './gfm.js';
import { fromJson, runMetadata } from './fixtures.js';

const bin = (low: number, moves: number, successShare: number | null) => ({
  low,
  high: low + 0.1,
  moves,
  successShare,
});

function report() {
  return buildReport({
    run: runMetadata(),
    sections: {
      churn: fromJson({
        check: 'churn',
        method: 'fisher-bh',
        comparison: {
          domains: [
            { domain: 'law', improved: 1, deteriorated: 7 },
            { domain: 'math', improved: 5, deteriorated: 0 },
            { domain: 'history "old"', improved: 2, deteriorated: 1 },
          ],
        },
      }),
      dragon: fromJson({
        check: 'dragon',
        baseline: {
          bins: [bin(0.5, 10, 0.6), bin(0.6, 0, null), bin(0.7, 12, 0.75), bin(0.9, 30, 0.9)],
        },
        candidate: {
          bins: [bin(0.5, 2, 0.5), bin(0.6, 4, 0.5), bin(0.7, 0, null), bin(0.9, 80, 0.55)],
        },
      }),
    },
    findings: [],
    createdAt: '2025-01-02T00:00:00Z',
  });
}

describe('inline charts at a glance', () => {
  it('draws churn by domain: deteriorated as bars, improved as a line', () => {
    const [churn] = glanceCharts(report());
    expect(churn).toContain('  x-axis ["law", "math", "history old"]');
    expect(churn).toContain('  y-axis "items" 0 --> 7');
    expect(churn).toContain('  bar [7, 0, 1]');
    expect(churn).toContain('  line [1, 5, 2]');
  });

  it('draws reliability on the bins both models used, with the diagonal', () => {
    const [, dragon] = glanceCharts(report());
    // Bins 0.6 and 0.7 are empty for one model each: only 0.5 and 0.9 remain.
    expect(dragon).toContain('  x-axis ["0.5–0.6", "0.9–1.0"]');
    expect(dragon).toContain('  y-axis "share advanced" 0 --> 1');
    expect(dragon?.split('\n').filter((l) => l.startsWith('  line'))).toEqual([
      '  line [0.6, 0.9]',
      '  line [0.5, 0.55]',
      '  line [0.55, 0.95]',
    ]);
    // The bins left out are named, not skipped silently.
    expect(
      dragon?.endsWith(
        '\n\nNot drawn: the bins 0.6–0.7, 0.7–0.8, where a model stated no confidence.',
      ),
    ).toBe(true);
  });

  it('leaves a chart out when its data is missing, and the summary holds them as mermaid blocks', () => {
    const bare = buildReport({
      run: runMetadata(),
      sections: {
        churn: fromJson({ check: 'churn' }),
        dragon: fromJson({ check: 'dragon', baseline: null }),
      },
      findings: [],
      createdAt: '2025-01-02T00:00:00Z',
    });
    expect(glanceCharts(bare)).toEqual([]);
    const code = allTokens(renderSummary(report())).filter((t) => t.type === 'code');
    expect(code.map((t) => ('lang' in t ? t.lang : ''))).toEqual(['mermaid', 'mermaid']);
  });
});

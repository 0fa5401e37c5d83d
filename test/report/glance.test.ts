import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/report/build.js';
import { glanceCharts, renderSummary } from '../../src/report/summary.js';
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
          model: 'sim-base:7b',
          bins: [
            bin(0.5, 10, 0.6),
            bin(0.6, 0, null),
            bin(0.7, 12, 0.75),
            bin(0.8, 0, null),
            bin(0.9, 30, 0.9),
          ],
        },
        candidate: {
          model: 'sim-cand:14b',
          bins: [
            bin(0.5, 2, 0.5),
            bin(0.6, 4, 0.5),
            bin(0.7, 0, null),
            bin(0.8, 0, null),
            bin(0.9, 80, 0.55),
          ],
        },
      }),
    },
    findings: [],
    createdAt: '2025-01-02T00:00:00Z',
  });
}

describe('inline charts at a glance', () => {
  it('draws churn by domain as bars only: a worse and a better slot per domain', async () => {
    const [churn] = glanceCharts(report(), CHECKS);
    expect(churn).toContain(
      '  x-axis ["law worse", "law better", "math worse", "math better", "history old worse", "history old better"]',
    );
    expect(churn).toContain('  y-axis "items" 0 --> 7');
    expect(churn).toContain('  bar [7, 0, 0, 0, 1, 0]');
    expect(churn).toContain('  bar [0, 1, 0, 5, 0, 2]');
    // Domains have no order: nothing joins them with a line.
    expect(churn).not.toMatch(/^ {2}line /m);
    // Orange for worse, blue for better, and the legend says which is which in words.
    expect(churn).toContain('"plotColorPalette": "#E69F00, #0072B2"');
    expect(churn).toContain('🟧 bars: items reliably worse');
    expect(churn).toContain('🟦 bars: items reliably better');
    await expect(churn).toMatchFileSnapshot('golden/glance-churn.md');
  });

  it('draws reliability on the bins both models used, names the lines and the bins left out', async () => {
    const [, dragon] = glanceCharts(report(), CHECKS);
    // Bins 0.6 and 0.7 are empty for one model each: only 0.5 and 0.9 remain.
    expect(dragon).toContain('  x-axis ["0.5–0.6", "0.9–1.0"]');
    expect(dragon).toContain('  y-axis "share advanced" 0 --> 1');
    expect(dragon?.split('\n').filter((l) => l.startsWith('  line'))).toEqual([
      '  line [0.6, 0.9]',
      '  line [0.5, 0.55]',
      '  line [0.55, 0.95]',
    ]);
    expect(dragon).toContain(
      '🟦 line: baseline `sim-base:7b` · 🟧 line: candidate `sim-cand:14b` · ⬛ line: perfect calibration',
    );
    // Every bin is accounted for: drawn with its counts, left out by name, or empty for all.
    expect(dragon).toContain(
      'Moves per bin used by every model (baseline / candidate): 0.5–0.6 10 / 2, 0.9–1.0 30 / 80',
    );
    expect(dragon).toContain(
      'not drawn, a model stated no confidence there (baseline / candidate): 0.6–0.7 (0 / 4), 0.7–0.8 (12 / 0)',
    );
    expect(dragon).toContain('1 bin where no model stated a confidence.');
    await expect(dragon).toMatchFileSnapshot('golden/glance-dragon.md');
  });

  it('says why reliability is not drawn when the models share fewer than two bins', () => {
    const apart = buildReport({
      run: runMetadata(),
      sections: {
        dragon: fromJson({
          check: 'dragon',
          baseline: { model: 'a:1b', bins: [bin(0.6, 425, 0.64), bin(0.9, 877, 0.98)] },
          candidate: { model: 'b:1b', bins: [bin(0.6, 0, null), bin(0.9, 1090, 0.58)] },
        }),
      },
      findings: [],
      createdAt: '2025-01-02T00:00:00Z',
    });
    expect(glanceCharts(apart, CHECKS)).toEqual([
      'Reliability is not drawn inline: the models share 1 stated-confidence bin, a line needs two. Moves per bin used by every model (baseline / candidate): 0.9–1.0 877 / 1090; not drawn, a model stated no confidence there (baseline / candidate): 0.6–0.7 (425 / 0). The full diagram is dragon-reliability.svg.',
    ]);
  });

  it('names the one series of a single-model run by the model', () => {
    const single = buildReport({
      run: runMetadata(),
      sections: {
        dragon: fromJson({
          check: 'dragon',
          baseline: { model: 'sim-base:7b', bins: [bin(0.5, 10, 0.6), bin(0.9, 30, 0.9)] },
          candidate: null,
        }),
      },
      findings: [],
      createdAt: '2025-01-02T00:00:00Z',
    });
    const [dragon] = glanceCharts(single, CHECKS);
    expect(dragon).toContain('🟦 line: model `sim-base:7b` · ⬛ line: perfect calibration');
    expect(dragon).not.toContain('baseline');
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
    expect(glanceCharts(bare, CHECKS)).toEqual([]);
    const code = allTokens(renderSummary(report())).filter((t) => t.type === 'code');
    expect(code.map((t) => ('lang' in t ? t.lang : ''))).toEqual(['mermaid', 'mermaid']);
  });
});

/**
 * Sizes a user can reach with a real item set (MMLU-Pro has 12,032 items) or a hostile
 * server: nothing may be built with an argument spread, which overflows the call stack
 * somewhere past ~100k arguments.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { checkContext } from '../../src/checks/context.js';
import { loadChecks, planChecks } from '../../src/pipeline/checks.js';
import { codeSpan } from '../../src/render/markdown.js';
import { WORSE } from '../../src/render/palette.js';
import { xyChart } from '../../src/render/mermaid.js';
import { writeItemsFile } from '../support/itemsFile.js';

describe('large inputs', () => {
  it('plans 150,007 work units for one model (13,637 items × (10 samples + greedy))', async () => {
    const { dir, items } = writeItemsFile('model-gate-large-', 13_637, 14);
    const loaded = loadConfig({
      checks: CHECKS,
      file: null,
      cwd: dir,
      env: {},
      overrides: [
        { path: ['models', 'baseline'], value: 'base:1b', source: 'test' },
        { path: ['checks'], value: ['churn'], source: 'test' },
        { path: ['churn', 'items'], value: items, source: 'test' },
        { path: ['churn', 'samples'], value: 10, source: 'test' },
      ],
    });
    const ctx = checkContext(loaded);
    const units = planChecks(await loadChecks(ctx, CHECKS), ctx);
    expect(units.length).toBe(150_007);
    expect(units.at(-1)?.key).toBe('q13636#greedy');
  });

  it('puts a 400 kB text full of backtick runs in a code span', () => {
    const text = '`x'.repeat(200_000);
    const span = codeSpan(text);
    // Shown cut (a code span shows at most 2,000 characters), fenced by the longest run + 1.
    expect(span.startsWith('``')).toBe(true);
    expect(span.length).toBeLessThan(2010);
    expect(span).toContain('…');
  });

  it('draws a mermaid chart of 200,000 values', () => {
    const values = Array.from({ length: 200_000 }, (_, i) => i % 7);
    const chart = xyChart({
      title: 't',
      categories: ['a'],
      yLabel: 'n',
      series: [{ name: 'n', kind: 'bar', colour: WORSE, values }],
    });
    expect(chart).toContain('y-axis "n" 0 --> 6');
  });
});

import { describe, expect, it } from 'vitest';
import { mermaidLabel, xyChart } from '../../src/render/mermaid.js';
import { allTokens } from '../report/gfm.js';
import { HOSTILE } from '../report/fixtures.js';

describe('xyChart', () => {
  it('writes an xychart-beta block with the series given', () => {
    const chart = xyChart({
      title: 'Reliable change by domain',
      categories: ['law', 'math'],
      yLabel: 'items',
      bars: [[7, 1]],
      lines: [[0.5, 2.25]],
    });
    expect(chart).toBe(
      [
        '```mermaid',
        'xychart-beta',
        '  title "Reliable change by domain"',
        '  x-axis ["law", "math"]',
        '  y-axis "items" 0 --> 7',
        '  bar [7, 1]',
        '  line [0.5, 2.25]',
        '```',
      ].join('\n'),
    );
  });

  it('keeps hostile labels inside one quoted label and one fenced block', () => {
    const chart = xyChart({
      title: '"x"```',
      categories: [...HOSTILE],
      yLabel: 'n',
      bars: [HOSTILE.map(() => 1)],
    });
    const blocks = allTokens(chart).filter((t) => t.type === 'code');
    expect(blocks).toHaveLength(1);
    const axis = chart.split('\n').find((l) => l.startsWith('  x-axis'))!;
    // One label per category: quotes come in pairs, none inside a label.
    expect((axis.match(/"/g) ?? []).length).toBe(HOSTILE.length * 2);
    for (const h of HOSTILE) expect(mermaidLabel(h)).toMatch(/^"[^"`\n[\]<>{}]*"$/);
  });

  it('shortens long labels and names empty ones', () => {
    expect(mermaidLabel('a'.repeat(60))).toBe(`"${'a'.repeat(39)}…"`);
    expect(mermaidLabel('<>')).toBe('"?"');
  });
});

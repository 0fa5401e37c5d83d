import { describe, expect, it } from 'vitest';
import { mermaidLabel, xyChart } from '../../src/render/mermaid.js';
import { BASELINE, WORSE } from '../../src/render/palette.js';
import { allTokens } from '../report/gfm.js';
import { HOSTILE } from '../report/fixtures.js';

describe('xyChart', () => {
  it('writes an xychart-beta block with the series given, coloured in order and named below', () => {
    const chart = xyChart({
      title: 'Reliable change by domain',
      categories: ['law', 'math'],
      yLabel: 'items',
      series: [
        { name: 'items worse', kind: 'bar', colour: WORSE, values: [7, 1] },
        {
          name: 'baseline',
          model: 'qwen3:8b',
          kind: 'line',
          colour: BASELINE,
          values: [0.5, 2.25],
        },
      ],
      caption: 'Read me',
    });
    expect(chart).toBe(
      [
        '```mermaid',
        '%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "#E69F00, #0072B2"}}}}%%',
        'xychart-beta',
        '  title "Reliable change by domain"',
        '  x-axis ["law", "math"]',
        '  y-axis "items" 0 --> 7',
        '  bar [7, 1]',
        '  line [0.5, 2.25]',
        '```',
        '',
        '🟧 bars: items worse · 🟦 line: baseline `qwen3:8b`. Read me',
      ].join('\n'),
    );
  });

  it('writes data values with the plain hyphen that mermaid parses', () => {
    const chart = xyChart({
      title: 't',
      categories: ['a', 'b'],
      yLabel: 'n',
      yRange: [-1, 1],
      series: [{ name: 's', kind: 'bar', colour: WORSE, values: [-0.5, 0.25] }],
    });
    expect(chart).toContain('  y-axis "n" -1 --> 1');
    expect(chart).toContain('  bar [-0.5, 0.25]');
    expect(chart).not.toContain('\u2212');
  });

  it('keeps hostile labels inside one quoted label and one fenced block', () => {
    const chart = xyChart({
      title: '"x"```',
      categories: [...HOSTILE],
      yLabel: 'n',
      series: [{ name: '<b>@x</b>', kind: 'bar', colour: WORSE, values: HOSTILE.map(() => 1) }],
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

import { describe, expect, it } from 'vitest';
import { analyseChurn } from '../../../src/checks/churn/analyse.js';
import type { ChoiceItem } from '../../../src/checks/churn/items.js';
import { churnCharts } from '../../../src/checks/churn/report/charts.js';
import { renderChurnSection } from '../../../src/checks/churn/report/markdown.js';
import { rawHtml, tableLinePipes, tables } from '../../report/gfm.js';
import { params, settings, simulateModel, syntheticItems } from './simulate.js';

const OWN_HTML = /^(<details><summary>[^<]*<\/summary>|<\/details>)$/;

/** Items whose ids and domains try to break out of the markdown. */
function hostileItems(): ChoiceItem[] {
  return syntheticItems({ law: 30, 'phys|ics <b>': 30 }).map((item, i) => ({
    ...item,
    id: i === 0 ? 'law-0 | @octocat <img src=x>' : item.id,
  }));
}

function section() {
  const items = hostileItems();
  const shifts: Record<string, number> = {};
  items.forEach((item, i) => {
    if (item.domain === 'law' && i < 10) shifts[item.id] = -8;
    if (item.domain !== 'law' && i % 2 === 0) shifts[item.id] = 8;
  });
  const domains = { law: 2.2, 'phys|ics <b>': -1.4 };
  const records = [
    ...simulateModel('base:1b', items, params({ spread: 0.3, domains }), 10, 1000),
    ...simulateModel(
      'cand:1b',
      items,
      params({ spread: 0.3, domains, itemShifts: shifts }),
      10,
      2000,
    ),
  ];
  return analyseChurn({
    records,
    items,
    settings: settings(),
    baseline: 'base:1b',
    candidate: 'cand:1b',
  });
}

describe('renderChurnSection', () => {
  const churn = section();
  const md = renderChurnSection(churn);

  it('shows the comparison, both methods with their null expectation, and the lost domain', () => {
    expect(md).toContain('### churn');
    expect(md).toMatch(/\*\*Δ accuracy \+\d+\.\d pts\*\*/);
    // Law lost ~32 points; the overall +2.5 is not significant, so it is no reversal.
    expect(md).toMatch(/\*\*Domains that lost accuracy:\*\* law \(−\d+\.\d pts\)\./);
    expect(md).not.toContain('**Domain reversals:**');
    expect(md).toMatch(/\| law ⚠ loss +\| +30 \|/);
    // The smallest detected changes for both methods, and the K each effect needs.
    expect(md).toMatch(
      /\*\*Smallest change detected with 80% power at K = 10:\*\* one item by 0\.\d\d \(Fisher \+ BH\) or 0\.\d\d \(RCI/,
    );
    const power = tables(md).find((t) => t.header.includes('K needed'));
    expect(power?.cells.length).toBeGreaterThanOrEqual(5);
    expect(md).toContain('B: Fisher + BH (q ≤ 0.05) — gate');
    expect(md).toContain('A: RCI (±1.96)');
    expect(md).toMatch(/between two identical models it flags \d+\.\d% of analysable items/);
    expect(md).toContain('**Top deteriorations**');
    expect(md).toMatch(/Greedy vs stochastic: greedy missed \d+ of \d+ reliably changed items/);
    const methodTable = tables(md).find((t) => t.header.includes('expected (null)'));
    expect(methodTable?.cells).toHaveLength(2);
  });

  it('escapes item ids and domains: no raw HTML, no mentions, no broken tables', () => {
    expect(rawHtml(md, OWN_HTML)).toEqual([]);
    expect(md).not.toMatch(/(^|[^\\])@octocat/);
    for (const block of tableLinePipes(md)) expect(new Set(block).size).toBe(1);
    for (const table of tables(md))
      for (const width of table.rowWidths) expect(width).toBe(table.columns);
  });

  it('shows model tags as code spans, with no invisible character inside', () => {
    expect(md).toMatch(/\| +baseline +\| `base:1b` +\|/);
    expect(md).toMatch(/\| +candidate +\| `cand:1b` +\|/);
    expect(md).not.toContain('\u200b');
  });

  it('renders a single-model run', () => {
    const single = { ...churn, candidate: null, comparison: null };
    expect(renderChurnSection(single)).toContain('Single-model run: no comparison.');
    expect(churnCharts(single)).toEqual([]);
  });
});

describe('churnCharts', () => {
  it('draws improved and deteriorated bars per domain, text escaped', () => {
    const [chart] = churnCharts(section());
    expect(chart?.file).toBe('churn-domains.svg');
    expect(chart?.svg.startsWith('<svg')).toBe(true);
    expect(chart?.svg).toContain('phys|ics &lt;b&gt;');
    expect(chart?.svg).not.toContain('<b>');
    expect(chart?.svg).toContain('law (loss)');
    // Two bars per domain.
    expect(chart?.svg.match(/<rect [^>]*height="18"/g)).toHaveLength(4);
  });

  it('tells worse from better by side, hatch and label as well as colour, never red and green', async () => {
    const [chart] = churnCharts(section());
    const svg = chart?.svg ?? '';
    expect(svg.match(/fill="url\(#worse-hatch\)"/g)).toHaveLength(2);
    expect(svg.match(/<rect [^>]*fill="#0072B2"/g)).toHaveLength(2);
    expect(svg).toContain('<rect width="6" height="6" fill="#E69F00"/>');
    expect(svg).toContain('← deteriorated (hatched)');
    expect(svg).toContain('improved (solid) →');
    expect(svg).not.toMatch(/#(d92d20|12b76a|b42318|067647)/i);
    await expect(svg).toMatchFileSnapshot('golden/churn-domains.svg');
  });

  it('shows each domain’s accuracy change, so a lost domain is visible with no item flagged', () => {
    const full = section();
    const comparison = full.comparison;
    if (!comparison) throw new Error('expected a comparison');
    const quiet = {
      ...full,
      comparison: {
        ...comparison,
        domains: comparison.domains.map((d, i) => ({
          ...d,
          domain: i === 0 ? 'government_and_politics_of_the_european_union' : d.domain,
          delta: i === 0 ? -0.35 : 0.02,
          improved: 0,
          deteriorated: 0,
          net: 0,
          reversal: false,
          loss: false,
          gain: false,
        })),
      },
    } as typeof full;
    const svg = churnCharts(quiet)[0]?.svg ?? '';
    expect(svg).toMatch(/>−35\.0 pts \[[−+]\d+\.\d, [−+]\d+\.\d\]<\/text>/);
    expect(svg).toMatch(/>\+2\.0 pts \[/);
    expect(svg).toContain('no item changed reliably in any domain');
    // The whole name fits left of the bars: its right end sits at the label column's edge,
    // and that column is wide enough for 45 characters of about 7 px.
    const label =
      /<text x="([\d.]+)" y="[\d.]+" text-anchor="end">government_and_politics_of_the_european_union<\/text>/.exec(
        svg,
      );
    expect(label).not.toBeNull();
    expect(Number(label?.[1])).toBeGreaterThanOrEqual(45 * 7);
  });

  it('draws each domain’s Δ accuracy with its interval beside the counts, where no item moved', () => {
    const full = section();
    const comparison = full.comparison;
    if (!comparison) throw new Error('expected a comparison');
    // A domain that gained 25 points [+17, +33] with no item flagged: the counts panel is empty
    // for it, the accuracy panel is not.
    const gained = {
      ...full,
      comparison: {
        ...comparison,
        domains: comparison.domains.map((d) => ({
          ...d,
          delta: 0.25,
          deltaCi: { low: 0.17, high: 0.33 },
          improved: 0,
          deteriorated: 0,
          loss: false,
          gain: true,
          reversal: false,
        })),
      },
    } as typeof full;
    const svg = churnCharts(gained)[0]?.svg ?? '';
    expect(svg.match(/>\+25\.0 pts \[\+17\.0, \+33\.0\]<\/text>/g)).toHaveLength(2);
    // Two gains drawn as blue circles on the interval's whisker (and one in the legend).
    expect(svg.match(/<circle [^>]*fill="#0072B2"/g)).toHaveLength(3);
    const whisker = /<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="\2" stroke="#0072B2"/.exec(
      svg,
    );
    expect(whisker).not.toBeNull();
    expect(Number(whisker?.[3]) - Number(whisker?.[1])).toBeGreaterThan(20);
    // A report written before the interval was kept: the estimate alone, no whisker.
    const older = {
      ...gained,
      comparison: {
        ...gained.comparison,
        domains: gained.comparison?.domains.map(({ deltaCi: _, ...d }) => d) ?? [],
      },
    } as typeof full;
    const plain = churnCharts(older)[0]?.svg ?? '';
    expect(plain.match(/>\+25\.0 pts<\/text>/g)).toHaveLength(2);
  });
});

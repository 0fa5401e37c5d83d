/**
 * The churn chart (SVG), drawn from the report section alone. Two panels per domain: the items
 * that changed reliably (counts, worse left and better right), and the domain's change of
 * accuracy with its 95% interval. A domain can gain or lose many points with no single item
 * flagged (items move a little each); the second panel shows that, the first would not.
 */
import { MINUS, points, signed, trimmed } from '../../../text/format.js';
import { type Chart, element, hatchPattern, svgDocument, text } from '../../../render/svg.js';
import { BETTER, MUTED, WORSE } from '../../../render/palette.js';
import type { ChurnSection, DomainRow, Interval } from '../section.js';
import { domainLabel } from './markdown.js';

const ROW_HEIGHT = 26;
const TOP = 56;
/** Width of each side of the counts panel. */
const HALF = 150;
/** The accuracy-change panel and the column of its numbers. */
const DELTA_PANEL = 240;
const DELTA_TEXT = 170;
const GAP = 36;
/** Worse bars are hatched as well as orange, and sit left of the axis: three cues, not one. */
const WORSE_HATCH = 'worse-hatch';

interface Layout {
  labels: string[];
  labelWidth: number;
  width: number;
  height: number;
  /** x of the counts panel's axis, and pixels per item. */
  axis: number;
  scale: number;
  /** x of the accuracy panel's zero, pixels per unit of accuracy (1 = 100 points), its range. */
  zero: number;
  perUnit: number;
  range: number;
  /** y of the "all items" row. */
  overallY: number;
}

function layout(c: NonNullable<ChurnSection['comparison']>): Layout {
  // As wide as the longest label (about 7 px a character at 12 px), so none is clipped at
  // the left edge; a very long name is shortened with "…".
  const labels = c.domains.map((d) =>
    domainLabel(d.domain, d.reversal ? ' (reversal)' : d.loss ? ' (loss)' : ''),
  );
  const labelWidth = Math.min(
    360,
    Math.max(150, 16 + 7 * labels.reduce((n, l) => Math.max(n, l.length), 0)),
  );
  const max = c.domains.reduce((m, d) => Math.max(m, d.improved, d.deteriorated), 1);
  const range = niceRange(
    [...c.domains.flatMap((d) => [d.delta, d.deltaCi?.low, d.deltaCi?.high]), c.delta.mean]
      .concat([c.delta.low, c.delta.high])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
      .reduce((m, v) => Math.max(m, Math.abs(v)), 0),
  );
  const deltaLeft = labelWidth + 2 * HALF + GAP;
  const overallY = TOP + c.domains.length * ROW_HEIGHT + 8;
  return {
    labels,
    labelWidth,
    width: deltaLeft + DELTA_PANEL + DELTA_TEXT,
    height: overallY + ROW_HEIGHT + 56,
    axis: labelWidth + HALF,
    scale: (HALF - 30) / max,
    zero: deltaLeft + DELTA_PANEL / 2,
    perUnit: (DELTA_PANEL / 2 - 6) / range,
    range,
    overallY,
  };
}

/** The smallest of a few round ranges (in accuracy, 0.1 = 10 points) that holds `extent`. */
function niceRange(extent: number): number {
  return [0.04, 0.1, 0.2, 0.4, 0.6, 0.8, 1].find((r) => extent <= r) ?? 1;
}

/** One domain's counts: its name, worse items left of the axis, better items right. */
function countBars(d: DomainRow, i: number, l: Layout): string[] {
  const y = TOP + i * ROW_HEIGHT;
  const bar = (x: number, count: number, fill: string) =>
    element('rect', { x, y: y + 4, width: count * l.scale, height: 18, fill });
  const out = [
    text(l.labelWidth - 8, y + 17, l.labels[i] ?? d.domain, { 'text-anchor': 'end' }),
    bar(l.axis - d.deteriorated * l.scale, d.deteriorated, `url(#${WORSE_HATCH})`),
    bar(l.axis, d.improved, BETTER.hex),
  ];
  if (d.deteriorated > 0) {
    const at = l.axis - d.deteriorated * l.scale - 4;
    out.push(text(at, y + 17, String(d.deteriorated), { 'text-anchor': 'end' }));
  }
  if (d.improved > 0) out.push(text(l.axis + d.improved * l.scale + 4, y + 17, String(d.improved)));
  return out;
}

/**
 * A change of accuracy with its interval: a whisker, and a mark at the estimate: an orange
 * square for a significant loss, a blue circle for a significant gain, a grey circle otherwise.
 * Its numbers beside it, so the chart reads without the colours.
 */
function deltaMark(
  y: number,
  delta: number | null,
  ci: Interval | undefined,
  kind: 'loss' | 'gain' | 'none',
  l: Layout,
): string[] {
  if (delta === null) return [text(l.zero, y + 17, '–', { 'text-anchor': 'middle' })];
  const x = (v: number) => l.zero + Math.max(-l.range, Math.min(l.range, v)) * l.perUnit;
  const colour = kind === 'loss' ? WORSE.hex : kind === 'gain' ? BETTER.hex : MUTED;
  const out: string[] = [];
  const { low, high } = ci ?? { low: null, high: null };
  if (low !== null && high !== null) {
    for (const [x1, x2] of [
      [x(low), x(high)],
      [x(low), x(low)],
      [x(high), x(high)],
    ] as const) {
      const cap = x1 === x2 ? 5 : 0;
      out.push(
        element('line', {
          x1,
          y1: y + 13 - cap,
          x2,
          y2: y + 13 + cap,
          stroke: colour,
          'stroke-width': 2,
        }),
      );
    }
  }
  out.push(
    kind === 'loss'
      ? element('rect', { x: x(delta) - 5, y: y + 8, width: 10, height: 10, fill: colour })
      : element('circle', { cx: x(delta), cy: y + 13, r: 5, fill: colour }),
  );
  const interval =
    low !== null && high !== null ? ` [${signed(low * 100, 1)}, ${signed(high * 100, 1)}]` : '';
  out.push(text(l.zero + DELTA_PANEL / 2 + 10, y + 17, `${points(delta)}${interval}`));
  return out;
}

/** The accuracy panel's frame: zero line, ticks at the half and the full range, their labels. */
function deltaAxis(l: Layout): string[] {
  const bottom = l.overallY + ROW_HEIGHT;
  const at = (share: number) => l.zero + share * l.range * l.perUnit;
  const dashed = { stroke: '#d0d5dd', 'stroke-dasharray': '2 3' };
  return [
    element('line', { x1: l.zero, y1: TOP, x2: l.zero, y2: bottom, stroke: '#344054' }),
    element('line', { x1: at(-1), y1: bottom, x2: at(1), y2: bottom, stroke: '#344054' }),
    ...[-1, -0.5, 0.5, 1].map((share) =>
      element('line', { x1: at(share), y1: TOP, x2: at(share), y2: bottom, ...dashed }),
    ),
    ...[-1, -0.5, 0, 0.5, 1].map((share) =>
      text(at(share), bottom + 14, tick(share * l.range * 100), {
        'text-anchor': 'middle',
        'font-size': 10,
        fill: MUTED,
      }),
    ),
  ];
}

/** The key of the marks, drawn with the marks themselves. */
function markLegend(x: number, y: number): string[] {
  const label = (at: number, words: string) =>
    text(at, y + 4, words, { 'font-size': 10, fill: MUTED });
  return [
    element('rect', { x, y: y - 4, width: 8, height: 8, fill: WORSE.hex }),
    label(x + 11, 'significant loss'),
    element('circle', { cx: x + 98, cy: y, r: 4, fill: BETTER.hex }),
    label(x + 105, 'gain'),
    element('circle', { cx: x + 140, cy: y, r: 4, fill: MUTED }),
    label(x + 147, 'neither'),
  ];
}

function tick(value: number): string {
  if (value === 0) return '0';
  const shown = Number.isInteger(value) ? String(Math.abs(value)) : Math.abs(value).toFixed(1);
  return `${value > 0 ? '+' : MINUS}${shown}`;
}

/** Improved and deteriorated items per domain (gate method), and each domain's Δ accuracy. */
export function churnCharts(section: ChurnSection): Chart[] {
  const c = section.comparison;
  if (!c || c.domains.length === 0) return [];
  const l = layout(c);
  const nothingChanged = c.domains.every((d) => d.improved === 0 && d.deteriorated === 0);
  const counted =
    section.estimator === 'logprobs'
      ? `Items changed by ${trimmed(section.minEffect * 100)}+ points of p(correct)`
      : `Items changed reliably (${section.method === 'fisher-bh' ? 'Fisher + BH' : 'RCI'})`;
  const title = `Change by domain: ${counted.charAt(0).toLowerCase()}${counted.slice(1)}, and Δ accuracy`;
  const deltaLeft = l.zero - DELTA_PANEL / 2;
  const body: string[] = [
    hatchPattern(WORSE_HATCH, WORSE.hex),
    text(10, 20, title, { 'font-weight': 'bold' }),
    text(l.axis, TOP - 22, counted, { 'text-anchor': 'middle' }),
    text(l.axis - 10, TOP - 6, '← deteriorated (hatched)', { 'text-anchor': 'end' }),
    text(l.axis + 10, TOP - 6, 'improved (solid) →'),
    text(l.zero, TOP - 22, 'Δ accuracy (points), 95% interval', { 'text-anchor': 'middle' }),
    ...markLegend(deltaLeft, TOP - 10),
    ...c.domains.flatMap((d, i) => [
      ...countBars(d, i, l),
      ...deltaMark(
        TOP + i * ROW_HEIGHT,
        d.delta,
        d.deltaCi,
        d.loss ? 'loss' : d.gain ? 'gain' : 'none',
        l,
      ),
    ]),
    element('line', {
      x1: l.axis,
      y1: TOP,
      x2: l.axis,
      y2: TOP + c.domains.length * ROW_HEIGHT,
      stroke: '#344054',
    }),
    ...deltaAxis(l),
    text(l.labelWidth - 8, l.overallY + 17, 'all items', {
      'text-anchor': 'end',
      'font-weight': 'bold',
    }),
    ...deltaMark(l.overallY, c.delta.mean, c.delta, 'none', l),
    ...(nothingChanged
      ? [
          text(l.axis, l.overallY + 17, 'no item changed reliably in any domain', {
            'text-anchor': 'middle',
            fill: MUTED,
          }),
        ]
      : []),
    text(10, l.height - 10, intervalNote(c.delta.interval), { 'font-size': 10, fill: MUTED }),
  ];
  return [{ file: 'churn-domains.svg', title, svg: svgDocument(l.width, l.height, title, body) }];
}

function intervalNote(overall: 'items' | 'domains'): string {
  const all =
    overall === 'domains'
      ? 'all items: bootstrap over whole domains'
      : 'all items: t interval over items';
  return `Intervals: 95%; a domain's is a t interval over its items' changes (${all}). Points: percentage points of accuracy.`;
}

/** The churn chart (SVG), drawn from the report section alone. */
import { points } from '../../../text/format.js';
import { type Chart, element, hatchPattern, svgDocument, text } from '../../../render/svg.js';
import { BETTER, WORSE } from '../../../render/palette.js';
import type { ChurnSection, DomainRow } from '../section.js';
import { domainLabel, fixed } from './markdown.js';

const ROW_HEIGHT = 26;
const TOP = 40;
const HALF = 220;
const DELTA_WIDTH = 90;
/** Worse bars are hatched as well as orange, and sit left of the axis: three cues, not one. */
const WORSE_HATCH = 'worse-hatch';

interface Layout {
  labels: string[];
  labelWidth: number;
  width: number;
  height: number;
  axis: number;
  deltaX: number;
  scale: number;
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
  const width = labelWidth + 2 * HALF + 40 + DELTA_WIDTH;
  const max = c.domains.reduce((m, d) => Math.max(m, d.improved, d.deteriorated), 1);
  return {
    labels,
    labelWidth,
    width,
    height: TOP + c.domains.length * ROW_HEIGHT + 40,
    axis: labelWidth + HALF,
    deltaX: width - 8,
    scale: (HALF - 30) / max,
  };
}

/** One domain: its name, worse items left of the axis, better items right, its Δ accuracy. */
function domainRow(d: DomainRow, i: number, l: Layout): string[] {
  const y = TOP + i * ROW_HEIGHT;
  const out = [
    text(l.labelWidth - 8, y + 17, l.labels[i] ?? d.domain, { 'text-anchor': 'end' }),
    // The accuracy change shows a domain's loss even when no single item changed reliably.
    text(l.deltaX, y + 17, points(d.delta), { 'text-anchor': 'end' }),
    element('rect', {
      x: l.axis - d.deteriorated * l.scale,
      y: y + 4,
      width: d.deteriorated * l.scale,
      height: 18,
      fill: `url(#${WORSE_HATCH})`,
    }),
    element('rect', {
      x: l.axis,
      y: y + 4,
      width: d.improved * l.scale,
      height: 18,
      fill: BETTER.hex,
    }),
  ];
  if (d.deteriorated > 0) {
    const at = l.axis - d.deteriorated * l.scale - 4;
    out.push(text(at, y + 17, String(d.deteriorated), { 'text-anchor': 'end' }));
  }
  if (d.improved > 0) out.push(text(l.axis + d.improved * l.scale + 4, y + 17, String(d.improved)));
  return out;
}

/** Improved and deteriorated items per domain, gate method, as horizontal bars. */
export function churnCharts(section: ChurnSection): Chart[] {
  const c = section.comparison;
  if (!c || c.domains.length === 0) return [];
  const l = layout(c);
  const nothingChanged = c.domains.every((d) => d.improved === 0 && d.deteriorated === 0);
  const title =
    section.estimator === 'logprobs'
      ? `Change of at least ${fixed(section.minEffect * 100)} points of p(correct) by domain (logprobs estimator)`
      : `Reliable change by domain (${section.method === 'fisher-bh' ? 'Fisher + BH' : 'RCI'})`;
  const body: string[] = [
    hatchPattern(WORSE_HATCH, WORSE.hex),
    text(l.width / 2, 20, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(l.axis - 10, TOP - 6, '← deteriorated (hatched)', { 'text-anchor': 'end' }),
    text(l.axis + 10, TOP - 6, 'improved (solid) →'),
    text(l.deltaX, TOP - 6, 'Δ accuracy', { 'text-anchor': 'end' }),
    ...c.domains.flatMap((d, i) => domainRow(d, i, l)),
    element('line', {
      x1: l.axis,
      y1: TOP,
      x2: l.axis,
      y2: TOP + c.domains.length * ROW_HEIGHT,
      stroke: '#344054',
    }),
    text(
      l.width / 2,
      l.height - 12,
      nothingChanged
        ? `no item changed reliably in any domain; aggregate Δ ${points(c.delta.mean)}`
        : `aggregate Δ ${points(c.delta.mean)}`,
      { 'text-anchor': 'middle' },
    ),
  ];
  return [{ file: 'churn-domains.svg', title, svg: svgDocument(l.width, l.height, title, body) }];
}

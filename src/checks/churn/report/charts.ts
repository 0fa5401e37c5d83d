/** The churn chart (SVG), drawn from the report section alone. */
import { points } from '../../../render/markdown.js';
import { type Chart, element, svgDocument, text } from '../../../render/svg.js';
import type { ChurnSection } from '../section.js';
import { domainLabel, fixed } from './markdown.js';

/** Improved and deteriorated items per domain, gate method, as horizontal bars. */
export function churnCharts(section: ChurnSection): Chart[] {
  const c = section.comparison;
  if (!c || c.domains.length === 0) return [];
  const rowHeight = 26;
  // As wide as the longest label (about 7 px a character at 12 px), so none is clipped at
  // the left edge; a very long name is shortened with "…".
  const labels = c.domains.map((d) =>
    domainLabel(d.domain, d.reversal ? ' (reversal)' : d.loss ? ' (loss)' : ''),
  );
  const labelWidth = Math.min(
    360,
    Math.max(150, 16 + 7 * labels.reduce((n, l) => Math.max(n, l.length), 0)),
  );
  const half = 220;
  const top = 40;
  const deltaWidth = 90;
  const width = labelWidth + 2 * half + 40 + deltaWidth;
  const height = top + c.domains.length * rowHeight + 40;
  const deltaX = labelWidth + 2 * half + 40 + deltaWidth - 8;
  const nothingChanged = c.domains.every((d) => d.improved === 0 && d.deteriorated === 0);
  const max = c.domains.reduce((m, d) => Math.max(m, d.improved, d.deteriorated), 1);
  const scale = (half - 30) / max;
  const axis = labelWidth + half;
  const title =
    section.estimator === 'logprobs'
      ? `Change of at least ${fixed(section.minEffect * 100)} points of p(correct) by domain (logprobs estimator)`
      : `Reliable change by domain (${section.method === 'fisher-bh' ? 'Fisher + BH' : 'RCI'})`;
  const body: string[] = [
    text(width / 2, 20, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(axis - 10, top - 6, '← deteriorated', { 'text-anchor': 'end', fill: '#b42318' }),
    text(axis + 10, top - 6, 'improved →', { fill: '#067647' }),
    text(deltaX, top - 6, 'Δ accuracy', { 'text-anchor': 'end' }),
  ];
  c.domains.forEach((d, i) => {
    const y = top + i * rowHeight;
    body.push(
      text(labelWidth - 8, y + 17, labels[i] ?? d.domain, {
        'text-anchor': 'end',
      }),
      // The accuracy change shows a domain's loss even when no single item changed reliably.
      text(deltaX, y + 17, points(d.delta), { 'text-anchor': 'end' }),
      element('rect', {
        x: axis - d.deteriorated * scale,
        y: y + 4,
        width: d.deteriorated * scale,
        height: 18,
        fill: '#d92d20',
      }),
      element('rect', {
        x: axis,
        y: y + 4,
        width: d.improved * scale,
        height: 18,
        fill: '#12b76a',
      }),
    );
    if (d.deteriorated > 0)
      body.push(
        text(axis - d.deteriorated * scale - 4, y + 17, String(d.deteriorated), {
          'text-anchor': 'end',
        }),
      );
    if (d.improved > 0) body.push(text(axis + d.improved * scale + 4, y + 17, String(d.improved)));
  });
  body.push(
    element('line', {
      x1: axis,
      y1: top,
      x2: axis,
      y2: top + c.domains.length * rowHeight,
      stroke: '#344054',
    }),
  );
  body.push(
    text(
      width / 2,
      height - 12,
      nothingChanged
        ? `no item changed reliably in any domain; aggregate Δ ${points(c.delta.mean)}`
        : `aggregate Δ ${points(c.delta.mean)}`,
      { 'text-anchor': 'middle' },
    ),
  );
  return [{ file: 'churn-domains.svg', title, svg: svgDocument(width, height, title, body) }];
}

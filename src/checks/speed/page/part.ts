/** The speed part: per item each model's decode rate and answer length, and their scatter. */
import { notes, rowsTable, section } from '../../../render/page/blocks.js';
import { el, svg } from '../../../render/page/dom.js';
import { num } from '../../../render/page/format.js';
import type { PagePart } from '../../../render/page/part.js';
import type { SpeedPage } from './types.js';

const SIDE = 320;
const PAD = 40;

/**
 * Candidate against baseline decode rate, one dot per item, on one scale: dots under the
 * diagonal are items the candidate decodes more slowly.
 */
function scatter(part: SpeedPage): SVGElement | null {
  if (part.points.length === 0) return null;
  const top = Math.max(...part.points.flat()) * 1.05 || 1;
  const span = SIDE - 2 * PAD;
  const x = (v: number) => PAD + (v / top) * span;
  const y = (v: number) => SIDE - PAD - (v / top) * span;
  const [base, cand] = part.models;
  return svg(
    'svg',
    {
      viewBox: `0 0 ${SIDE} ${SIDE}`,
      width: SIDE,
      height: SIDE,
      role: 'img',
      'aria-label': `decode tokens/s per item: ${cand} against ${base}`,
      class: 'speed-scatter',
    },
    svg('rect', { x: PAD, y: PAD, width: span, height: span, fill: '#fff', stroke: '#999' }),
    svg('line', {
      x1: x(0),
      y1: y(0),
      x2: x(top),
      y2: y(top),
      stroke: '#999',
      'stroke-dasharray': '4 3',
    }),
    ...part.points.map(([b, c]) =>
      svg('circle', { cx: x(b), cy: y(c), r: 2.5, fill: '#1f6feb', opacity: 0.6 }),
    ),
    svg(
      'text',
      { x: SIDE / 2, y: SIDE - 8, 'text-anchor': 'middle', 'font-size': 11 },
      `${base} tokens/s`,
    ),
    svg(
      'text',
      { x: 4, y: PAD - 8, 'font-size': 11 },
      `${cand} tokens/s; both axes 0 to ${num(top, 0)}`,
    ),
  );
}

function speedPart(part: SpeedPage): HTMLElement {
  return section(
    'speed',
    'Speed: is the candidate as fast and as brief as the baseline?',
    el(
      'p',
      { class: 'muted' },
      'Per item, the median over its answers; the items whose decoding the candidate slowed most come first.',
    ),
    scatter(part),
    rowsTable(part.items),
    part.moreItems > 0 ? el('p', { class: 'muted' }, `${part.moreItems} more items.`) : null,
    notes(part.notes),
  );
}

export const speedPagePart: PagePart<SpeedPage> = {
  name: 'speed',
  links: [],
  render: speedPart,
};

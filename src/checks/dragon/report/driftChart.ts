/**
 * The trend chart of the ece-drift rule (history-ece-trend.svg): ECE and its 95% interval per
 * night, the nights the rule fitted shaded, and a dashed line where the model's digest
 * changed ("model re-pulled").
 */
import { BLUE, MUTED, ORANGE } from '../../../render/palette.js';
import { type Chart, element, svgDocument, text } from '../../../render/svg.js';
import { num, signed } from '../../../text/format.js';
import type { NightlyTrend, TrendNight } from '../../nightlyRule.js';
import type { DragonNight } from './numbers.js';
import type { DriftAnalysis } from '../drift.js';

const HISTORY_CHART = 'history-ece-trend.svg';

const WIDTH = 640;
const HEIGHT = 300;
const PLOT = { left: 56, top: 40, right: 16, bottom: 56 };
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;
const POINT = BLUE.hex;
// Orange, not red: a re-pull and a failed drift window stay apart from the blue points for
// readers who do not tell red from green; each also says what it is in words.
const REPULL = ORANGE.hex;
const FIRED_SHADE = '#fbe6bf';
const QUIET_SHADE = '#eef3f8';

/** Where a night and a value fall on the chart. */
interface Axes {
  x(i: number): number;
  y(v: number): number;
  yMax: number;
  nights: number;
}

export function driftChart(trend: NightlyTrend<DriftAnalysis, DragonNight>): Chart | null {
  const nights = trend.nights;
  const measured = nights.filter((n) => n.ece !== null);
  if (measured.length === 0) return null;
  const top = Math.max(0.1, ...measured.map((n) => n.ece?.high ?? 0));
  const yMax = Math.min(1, Math.ceil(top * 10) / 10);
  const n = nights.length;
  const axes: Axes = {
    x: (i) => PLOT.left + (n === 1 ? PLOT_W / 2 : (i * PLOT_W) / (n - 1)),
    y: (v) => PLOT.top + (1 - Math.min(v, yMax) / yMax) * PLOT_H,
    yMax,
    nights: n,
  };
  const title = `ECE per night: ${trend.model}`;
  const body = [
    ...driftWindowShade(trend, axes),
    ...gridLines(axes),
    ...nights.flatMap((night, i) => nightMarks(night, i, axes)),
    ...frame(trend.analysis, title),
  ];
  return { file: HISTORY_CHART, title, svg: svgDocument(WIDTH, HEIGHT, title, body) };
}

/** The nights the drift rule fitted: the last `window` nights that have an ECE. */
function driftWindowShade(
  trend: NightlyTrend<DriftAnalysis, DragonNight>,
  { x, nights: n }: Axes,
): string[] {
  const window = trend.analysis.window;
  if (window <= 0) return [];
  const indices = trend.nights.map((night, i) => (night.ece ? i : -1)).filter((i) => i >= 0);
  const first = indices[Math.max(0, indices.length - window)] ?? 0;
  const left = Math.max(PLOT.left, x(first) - (n > 1 ? PLOT_W / (n - 1) / 2 : 10));
  return [
    element('rect', {
      x: left,
      y: PLOT.top,
      width: PLOT.left + PLOT_W - left,
      height: PLOT_H,
      fill: trend.analysis.fired ? FIRED_SHADE : QUIET_SHADE,
    }),
  ];
}

function gridLines({ y, yMax }: Axes): string[] {
  return [0, 0.25, 0.5, 0.75, 1].flatMap((t) => {
    const v = t * yMax;
    return [
      element('line', {
        x1: PLOT.left,
        y1: y(v),
        x2: PLOT.left + PLOT_W,
        y2: y(v),
        stroke: '#e6e6e6',
      }),
      text(PLOT.left - 6, y(v) + 4, num(v, 2), { 'text-anchor': 'end', fill: MUTED }),
    ];
  });
}

/** A night's re-pull line, date label and ECE with its interval. */
function nightMarks(
  night: TrendNight<DragonNight>,
  i: number,
  { x, y, nights: n }: Axes,
): string[] {
  const body: string[] = [];
  if (night.rePulled) {
    body.push(
      element('line', {
        x1: x(i),
        y1: PLOT.top,
        x2: x(i),
        y2: PLOT.top + PLOT_H,
        stroke: REPULL,
        'stroke-dasharray': '4 3',
      }),
      text(x(i) + 3, PLOT.top + 10, 'model re-pulled', { fill: REPULL, 'font-size': 10 }),
    );
  }
  const label = n <= 16 || i % Math.ceil(n / 16) === 0 || i === n - 1;
  if (label) {
    body.push(
      text(x(i), PLOT.top + PLOT_H + 14, night.date.slice(5, 10), {
        'text-anchor': 'middle',
        fill: MUTED,
        'font-size': 10,
      }),
    );
  }
  if (!night.ece) return body;
  body.push(
    element('line', {
      x1: x(i),
      y1: y(night.ece.low),
      x2: x(i),
      y2: y(night.ece.high),
      stroke: '#222',
    }),
    element('circle', { cx: x(i), cy: y(night.ece.value), r: 3.5, fill: POINT }),
  );
  return body;
}

/** Plot border, title, the drift rule's outcome and the axis captions. */
function frame(d: DriftAnalysis, title: string): string[] {
  const verdict =
    d.window === 0
      ? `drift rule: ${d.available} of ${d.required} nights`
      : `drift over ${d.window} nights: ${signed(d.rise ?? 0)} (limit ${signed(d.maxRise)}, z ${num(d.z ?? 0, 2)})${d.fired ? ' — FAIL' : ''}`;
  return [
    element('rect', {
      x: PLOT.left,
      y: PLOT.top,
      width: PLOT_W,
      height: PLOT_H,
      fill: 'none',
      stroke: '#888',
    }),
    text(WIDTH / 2, 16, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(WIDTH / 2, 30, verdict, { 'text-anchor': 'middle', fill: MUTED, 'font-size': 11 }),
    text(PLOT.left + PLOT_W / 2, HEIGHT - 22, 'night (month-day); dot = ECE, bar = 95% interval', {
      'text-anchor': 'middle',
      fill: MUTED,
      'font-size': 11,
    }),
    text(14, PLOT.top + PLOT_H / 2, 'ECE', {
      'text-anchor': 'middle',
      transform: `rotate(-90 14 ${PLOT.top + PLOT_H / 2})`,
    }),
    text(
      PLOT.left,
      HEIGHT - 6,
      `shaded: nights the drift rule fitted${d.fired ? ' (orange: it failed)' : ''}`,
      {
        fill: MUTED,
        'font-size': 10,
      },
    ),
  ];
}

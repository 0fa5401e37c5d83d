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
import { line, rect } from './charts.js';

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

const caption = { fill: MUTED, 'font-size': 10 };

export function driftChart(trend: NightlyTrend<DriftAnalysis, DragonNight>): Chart | null {
  const { nights, analysis: d } = trend;
  const measured = nights.filter((n) => n.ece !== null);
  if (measured.length === 0) return null;
  const top = Math.max(0.1, ...measured.map((n) => n.ece?.high ?? 0));
  const yMax = Math.min(1, Math.ceil(top * 10) / 10);
  const n = nights.length;
  const x = (i: number) => PLOT.left + (n === 1 ? PLOT_W / 2 : (i * PLOT_W) / (n - 1));
  const y = (v: number) => PLOT.top + (1 - Math.min(v, yMax) / yMax) * PLOT_H;
  const right = PLOT.left + PLOT_W;
  const bottom = PLOT.top + PLOT_H;
  const body: string[] = [];
  // The nights the drift rule fitted: the last `window` nights that have an ECE.
  if (d.window > 0) {
    const indices = nights.map((night, i) => (night.ece ? i : -1)).filter((i) => i >= 0);
    const first = indices[Math.max(0, indices.length - d.window)] ?? 0;
    const left = Math.max(PLOT.left, x(first) - (n > 1 ? PLOT_W / (n - 1) / 2 : 10));
    const shade = d.fired ? FIRED_SHADE : QUIET_SHADE;
    body.push(rect(left, PLOT.top, right - left, PLOT_H, { fill: shade }));
  }
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    const v = t * yMax;
    body.push(
      line(PLOT.left, y(v), right, y(v), { stroke: '#e6e6e6' }),
      text(PLOT.left - 6, y(v) + 4, num(v, 2), { 'text-anchor': 'end', fill: MUTED }),
    );
  }
  // Each night: its re-pull line, its date (at most 16 of them), its ECE with its interval.
  nights.forEach((night: TrendNight<DragonNight>, i) => {
    if (night.rePulled) {
      body.push(
        line(x(i), PLOT.top, x(i), bottom, { stroke: REPULL, 'stroke-dasharray': '4 3' }),
        text(x(i) + 3, PLOT.top + 10, 'model re-pulled', { fill: REPULL, 'font-size': 10 }),
      );
    }
    if (n <= 16 || i % Math.ceil(n / 16) === 0 || i === n - 1) {
      const date = night.date.slice(5, 10);
      body.push(text(x(i), bottom + 14, date, { 'text-anchor': 'middle', ...caption }));
    }
    if (night.ece) {
      body.push(
        line(x(i), y(night.ece.low), x(i), y(night.ece.high), { stroke: '#222' }),
        element('circle', { cx: x(i), cy: y(night.ece.value), r: 3.5, fill: POINT }),
      );
    }
  });
  const title = `ECE per night: ${trend.model}`;
  const verdict =
    d.window === 0
      ? `drift rule: ${d.available} of ${d.required} nights`
      : `drift over ${d.window} nights: ${signed(d.rise ?? 0)} (limit ${signed(d.maxRise)}, z ${num(d.z ?? 0, 2)})${d.fired ? ' — FAIL' : ''}`;
  body.push(...frame(title, verdict, d.fired));
  return { file: HISTORY_CHART, title, svg: svgDocument(WIDTH, HEIGHT, title, body) };
}

/** The plot's frame, title, verdict line and axis captions. */
function frame(title: string, verdict: string, fired: boolean): string[] {
  const middle = PLOT.top + PLOT_H / 2;
  const axis = 'night (month-day); dot = ECE, bar = 95% interval';
  return [
    rect(PLOT.left, PLOT.top, PLOT_W, PLOT_H, { fill: 'none', stroke: '#888' }),
    text(WIDTH / 2, 16, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(WIDTH / 2, 30, verdict, { 'text-anchor': 'middle', fill: MUTED, 'font-size': 11 }),
    text(PLOT.left + PLOT_W / 2, HEIGHT - 22, axis, {
      'text-anchor': 'middle',
      fill: MUTED,
      'font-size': 11,
    }),
    text(14, middle, 'ECE', { 'text-anchor': 'middle', transform: `rotate(-90 14 ${middle})` }),
    text(
      PLOT.left,
      HEIGHT - 6,
      `shaded: nights the drift rule fitted${fired ? ' (orange: it failed)' : ''}`,
      caption,
    ),
  ];
}

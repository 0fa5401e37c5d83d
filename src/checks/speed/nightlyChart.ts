/**
 * The trend chart of rule decode-drop (history-decode-trend.svg): the median decode rate of each
 * night, and a dashed line at the rate below which tonight fails. A night that failed is an
 * orange dot and says so in words: colour is never the only cue.
 */
import { BLUE, MUTED, ORANGE } from '../../render/palette.js';
import { type Chart, element, svgDocument, text } from '../../render/svg.js';
import { percent, trimmed } from '../../text/format.js';
import type { NightlyTrend } from '../nightlyRule.js';

/** The speed numbers of a night; absent from the lines of nights the check did not run. */
export type SpeedNight = {
  /** Median decode tokens/s over the night's timed answers. */
  decodeTokensPerSecond?: number | null;
  /** The most GPU memory the model took (the server's /api/ps), MiB. */
  vramMib?: number | null;
};

export interface DecodeDropAnalysis {
  /** Tonight's median decode tokens/s; null when the check did not time tonight. */
  tonight: number | null;
  /** Median of the previous nights' rates in the window; null with too few of them. */
  median: number | null;
  /** Previous nights with a rate the median is taken over. */
  nights: number;
  required: number;
  maxDrop: number;
  /** 1 − tonight ÷ median: the share by which tonight is slower. */
  drop: number | null;
  fired: boolean;
}

const WIDTH = 640;
const HEIGHT = 260;
const PLOT = { left: 56, top: 40, right: 16, bottom: 44 };
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;

export function decodeTrendChart(
  trend: NightlyTrend<DecodeDropAnalysis, SpeedNight>,
): Chart | null {
  const { nights, analysis: a } = trend;
  const rates = nights.map((n) => n.decodeTokensPerSecond ?? null);
  const known = rates.filter((r): r is number => r !== null);
  if (known.length === 0) return null;
  const floor = a.median === null ? null : a.median * (1 - a.maxDrop);
  const top = Math.max(...known, a.median ?? 0) * 1.1;
  const n = nights.length;
  const x = (i: number) => PLOT.left + (n === 1 ? PLOT_W / 2 : (i * PLOT_W) / (n - 1));
  const y = (v: number) => PLOT.top + (1 - v / top) * PLOT_H;
  const title = `Median decode tokens/s per night: ${trend.model}`;
  const verdict =
    floor === null
      ? `not compared yet: ${a.nights} of the ${a.required} previous nights it needs`
      : `dashed: ${percent(a.maxDrop, 0)} below the median of the previous nights (${trimmed(a.median, 1)}); tonight ${a.fired ? 'fell below it (orange: it failed)' : 'is above it'}`;
  const body = [
    element('rect', {
      x: PLOT.left,
      y: PLOT.top,
      width: PLOT_W,
      height: PLOT_H,
      fill: '#fff',
      stroke: MUTED,
    }),
    ...(floor === null
      ? []
      : [
          element('line', {
            x1: PLOT.left,
            y1: y(floor),
            x2: PLOT.left + PLOT_W,
            y2: y(floor),
            stroke: ORANGE.hex,
            'stroke-dasharray': '6 4',
          }),
        ]),
    ...rates.flatMap((rate, i) => {
      if (rate === null) return [];
      const failed = a.fired && i === n - 1;
      return [
        element('circle', { cx: x(i), cy: y(rate), r: 3.5, fill: failed ? ORANGE.hex : BLUE.hex }),
      ];
    }),
    text(PLOT.left - 6, y(top / 1.1) + 4, trimmed(top / 1.1, 1), {
      'text-anchor': 'end',
      fill: MUTED,
    }),
    text(PLOT.left - 6, y(0) + 4, '0', { 'text-anchor': 'end', fill: MUTED }),
    text(WIDTH / 2, 16, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(WIDTH / 2, 30, verdict, { 'text-anchor': 'middle', fill: MUTED, 'font-size': 11 }),
    text(
      PLOT.left + PLOT_W / 2,
      HEIGHT - 14,
      `${n} nights, oldest first; dot = the night's median`,
      {
        'text-anchor': 'middle',
        fill: MUTED,
      },
    ),
  ];
  return { file: 'history-decode-trend.svg', title, svg: svgDocument(WIDTH, HEIGHT, title, body) };
}

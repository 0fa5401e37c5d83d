/** The dragon reliability diagrams (SVG), drawn from the report section alone. */
import { num } from '../../../render/markdown.js';
import { type Chart, element, svgDocument, text } from '../../../render/svg.js';
import type { DragonSection, DragonSeries } from '../section.js';
import { PALE_BIN_MOVES } from './markdown.js';

const WIDTH = 380;
const HEIGHT = 316;
// The bottom margin holds the tick labels, the axis title and the legend.
const PLOT = { left: 58, top: 34, right: 14, bottom: 60 };
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;
const BAR = '#4878a8';
const TICK = '#e07b00';
const LEGEND_TEXT = { fill: '#555', 'font-size': 10 };

const x = (v: number) => PLOT.left + v * PLOT_W;
const y = (v: number) => PLOT.top + (1 - v) * PLOT_H;

/**
 * Reliability diagram: bars = share of moves that advanced per bin, orange tick = mean stated
 * confidence in the bin, whisker = Wilson 95% interval, pale bars = fewer than 5 moves, dashed
 * diagonal = perfect calibration.
 */
export function reliabilityDiagram(series: DragonSeries, title: string): string {
  const body: string[] = [];
  for (const v of [0, 0.25, 0.5, 0.75, 1]) {
    body.push(
      element('line', { x1: x(0), y1: y(v), x2: x(1), y2: y(v), stroke: '#e6e6e6' }),
      text(PLOT.left - 6, y(v) + 4, v.toFixed(2), { 'text-anchor': 'end', fill: '#555' }),
      text(x(v), HEIGHT - PLOT.bottom + 16, v.toFixed(2), {
        'text-anchor': 'middle',
        fill: '#555',
      }),
    );
  }
  for (const bin of series.bins) {
    if (bin.moves === 0 || bin.successShare === null) continue;
    const pale = bin.moves < PALE_BIN_MOVES;
    const left = x(bin.low) + 2;
    const right = x(bin.high) - 2;
    const centre = (left + right) / 2;
    body.push(
      element('rect', {
        x: left,
        y: y(bin.successShare),
        width: right - left,
        height: y(0) - y(bin.successShare),
        fill: BAR,
        'fill-opacity': pale ? 0.3 : 0.9,
      }),
    );
    if (bin.wilsonLow !== null && bin.wilsonHigh !== null) {
      body.push(
        element('line', {
          x1: centre,
          y1: y(bin.wilsonLow),
          x2: centre,
          y2: y(bin.wilsonHigh),
          stroke: '#222',
          'stroke-opacity': pale ? 0.35 : 1,
        }),
      );
    }
    if (bin.meanConfidence !== null) {
      body.push(
        element('line', {
          x1: left,
          y1: y(bin.meanConfidence),
          x2: right,
          y2: y(bin.meanConfidence),
          stroke: TICK,
          'stroke-width': 3,
          'stroke-opacity': pale ? 0.4 : 1,
        }),
      );
    }
  }
  body.push(
    element('line', {
      x1: x(0),
      y1: y(0),
      x2: x(1),
      y2: y(1),
      stroke: '#888',
      'stroke-dasharray': '4 3',
    }),
    element('rect', {
      x: x(0),
      y: y(1),
      width: PLOT_W,
      height: PLOT_H,
      fill: 'none',
      stroke: '#888',
    }),
    text(WIDTH / 2, 16, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(
      WIDTH / 2,
      28,
      `${series.moves} moves · ECE ${series.ece ? series.ece.value.toFixed(3) : '–'} · Brier ${num(series.brier)}`,
      { 'text-anchor': 'middle', fill: '#555', 'font-size': 11 },
    ),
    text(x(0.5), HEIGHT - 26, 'stated confidence', { 'text-anchor': 'middle' }),
    // Left of the tick labels ("0.50" ends 6 px before the plot and is about 28 px wide).
    text(14, PLOT.top + PLOT_H / 2, 'moves that advanced', {
      'text-anchor': 'middle',
      transform: `rotate(-90 14 ${PLOT.top + PLOT_H / 2})`,
    }),
    // Legend: each mark is its own text element, spaces at the edge of a tspan get dropped.
    text(PLOT.left, HEIGHT - 8, '▬', { fill: TICK, 'font-size': 10, 'font-weight': 'bold' }),
    text(PLOT.left + 14, HEIGHT - 8, 'mean stated confidence', LEGEND_TEXT),
    text(PLOT.left + 150, HEIGHT - 8, '╌╌', { fill: '#888', 'font-size': 10 }),
    text(PLOT.left + 170, HEIGHT - 8, 'perfect calibration', LEGEND_TEXT),
  );
  return svgDocument(WIDTH, HEIGHT, title, body);
}

/** SVG charts of the dragon check, written next to report.json. */
export function dragonCharts(section: DragonSection): Chart[] {
  const charts: Chart[] = [];
  for (const series of [section.baseline, section.candidate]) {
    if (!series) continue;
    const title = `Reliability, ${series.role}: ${series.model}`;
    charts.push({
      file: `dragon-reliability-${series.role}.svg`,
      title,
      svg: reliabilityDiagram(series, title),
    });
  }
  for (const series of section.referencePlayers) {
    const name = (series.player ?? series.model).replace(/[^a-z0-9-]/gi, '-');
    const title = `Reliability, reference player ${series.player ?? series.model}`;
    charts.push({
      file: `dragon-reliability-player-${name}.svg`,
      title,
      svg: reliabilityDiagram(series, title),
    });
  }
  return charts;
}

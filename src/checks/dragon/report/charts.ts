/**
 * The dragon reliability diagram (SVG), drawn from the report section alone: the models'
 * series overlaid in one diagram (baseline and candidate side by side in each bin, or the one
 * model of a single-model run), and one diagram per reference player.
 */
import { type Chart, element, hatchPattern, svgDocument, text } from '../../../render/svg.js';
import { BASELINE, CANDIDATE, MUTED, type PaletteColour } from '../../../render/palette.js';
import { num } from '../../../text/format.js';
import type { DragonBin, DragonSection, DragonSeries } from '../section.js';
import { PALE_BIN_MOVES } from './markdown.js';

const WIDTH = 440;
const HEIGHT = 432;
// The bottom margin holds the tick labels, the axis title, the legend and the caption.
const PLOT = { left: 66, top: 60, right: 14, bottom: 136 };
const PLOT_W = WIDTH - PLOT.left - PLOT.right;
const PLOT_H = HEIGHT - PLOT.top - PLOT.bottom;
const INK = '#000000';
const SMALL = { fill: MUTED, 'font-size': 10 };
/** The candidate's bars are hatched as well as orange: a cue that does not need colour. */
const HATCH_ID = 'candidate-hatch';

const x = (v: number) => PLOT.left + v * PLOT_W;
const y = (v: number) => PLOT.top + (1 - v) * PLOT_H;

type Attributes = Record<string, string | number>;
export const line = (x1: number, y1: number, x2: number, y2: number, more: Attributes) =>
  element('line', { x1, y1, x2, y2, ...more });
export const rect = (left: number, top: number, width: number, height: number, more: Attributes) =>
  element('rect', { x: left, y: top, width, height, ...more });

/** One series of the diagram: its words for the legend and how its bars are filled. */
interface DiagramSeries {
  label: string;
  series: DragonSeries;
  colour: PaletteColour;
  hatched: boolean;
}

const fillOf = (s: DiagramSeries) => (s.hatched ? `url(#${HATCH_ID})` : s.colour.hex);

/** The counts of moves are written above the plot, one row per series, clear of every mark. */
const countRow = (k: number, of: number) => PLOT.top - 9 - (of - 1 - k) * 12;

/**
 * One series' marks in one bin: the bar (share that advanced), the whisker (Wilson 95%
 * interval), the tick (mean stated confidence) and, above the plot, the number of moves. A
 * bin this series left empty while another used it shows "0", so no gap reads as a result.
 */
function binMarks(bin: DragonBin, s: DiagramSeries, left: number, right: number, row: number) {
  const centre = (left + right) / 2;
  const count = text(centre, row, String(bin.moves), { ...SMALL, 'text-anchor': 'middle' });
  if (bin.moves === 0 || bin.successShare === null) return [count];
  const pale = bin.moves < PALE_BIN_MOVES;
  const opacity = pale ? 0.35 : 1;
  const ink = { stroke: INK, 'stroke-opacity': opacity };
  const share = y(bin.successShare);
  const out = [
    rect(left, share, right - left, y(0) - share, {
      fill: fillOf(s),
      'fill-opacity': pale ? 0.3 : 0.9,
    }),
  ];
  const { wilsonLow: low, wilsonHigh: high } = bin;
  if (low !== null && high !== null) {
    const cap = Math.min(3, (right - left) / 4);
    out.push(
      line(centre, y(low), centre, y(high), ink),
      line(centre - cap, y(low), centre + cap, y(low), ink),
      line(centre - cap, y(high), centre + cap, y(high), ink),
    );
  }
  if (bin.meanConfidence !== null) {
    const stated = y(bin.meanConfidence);
    out.push(
      line(left, stated, right, stated, {
        stroke: INK,
        'stroke-width': 3,
        'stroke-opacity': opacity,
      }),
    );
  }
  out.push(count);
  return out;
}

/** Every bin some series used, each series in its own slot of the bin. */
function bars(all: readonly DiagramSeries[]): string[] {
  const out = all.map((s, k) =>
    text(PLOT.left - 6, countRow(k, all.length), s.label.split(' ')[0] ?? '', {
      ...SMALL,
      'text-anchor': 'end',
    }),
  );
  const first = all[0]?.series.bins ?? [];
  first.forEach((bin, i) => {
    if (all.every((s) => (s.series.bins[i]?.moves ?? 0) === 0)) return;
    const left = x(bin.low) + 2;
    const slot = (x(bin.high) - 2 - left) / all.length;
    all.forEach((s, k) => {
      const own = s.series.bins[i];
      const row = countRow(k, all.length);
      if (own) out.push(...binMarks(own, s, left + k * slot, left + (k + 1) * slot - 1, row));
    });
  });
  return out;
}

/** The legend, one line per series, then the marks, then what the whiskers are. */
function legend(all: readonly DiagramSeries[]): string[] {
  const out: string[] = [];
  let at = HEIGHT - PLOT.bottom + 44;
  for (const d of all) {
    const { ece, moves, brier } = d.series;
    const words = `${d.label}: ${moves} moves · ECE ${ece ? num(ece.value) : '–'} · Brier ${num(brier)}`;
    out.push(
      rect(PLOT.left, at - 9, 12, 10, { fill: fillOf(d) }),
      text(PLOT.left + 18, at, words, { 'font-size': 11 }),
    );
    at += 15;
  }
  const notes = [
    'Whiskers: Wilson 95% interval of the share that advanced in the bin.',
    'Numbers above the plot: moves in the bin, per model (0: none).',
    `Pale bars: fewer than ${PALE_BIN_MOVES} moves.`,
  ];
  out.push(
    line(PLOT.left, at - 4, PLOT.left + 12, at - 4, { stroke: INK, 'stroke-width': 3 }),
    text(PLOT.left + 18, at, 'mean stated confidence', SMALL),
    text(PLOT.left + 150, at, '╌╌', { fill: '#888', 'font-size': 10 }),
    text(PLOT.left + 170, at, 'perfect calibration', SMALL),
    ...notes.map((note, i) => text(PLOT.left, at + 15 + 13 * i, note, SMALL)),
  );
  return out;
}

/**
 * Reliability diagram of one or more series: per stated-confidence bin, bars of the share of
 * moves that advanced, whiskers, mean stated confidence, counts; the dashed diagonal is
 * perfect calibration.
 */
function reliabilityDiagram(all: readonly DiagramSeries[], title: string): string {
  const hatched = all.find((s) => s.hatched);
  const grid = [0, 0.25, 0.5, 0.75, 1].flatMap((v) => [
    line(x(0), y(v), x(1), y(v), { stroke: '#e6e6e6' }),
    text(PLOT.left - 6, y(v) + 4, num(v, 2), { 'text-anchor': 'end', fill: MUTED }),
    text(x(v), HEIGHT - PLOT.bottom + 16, num(v, 2), { 'text-anchor': 'middle', fill: MUTED }),
  ]);
  const middle = PLOT.top + PLOT_H / 2;
  const body = [
    ...(hatched ? [hatchPattern(HATCH_ID, hatched.colour.hex)] : []),
    ...grid,
    ...bars(all),
    line(x(0), y(0), x(1), y(1), { stroke: '#888', 'stroke-dasharray': '4 3' }),
    rect(x(0), y(1), PLOT_W, PLOT_H, { fill: 'none', stroke: '#888' }),
    text(WIDTH / 2, 20, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    text(x(0.5), HEIGHT - PLOT.bottom + 32, 'stated confidence', { 'text-anchor': 'middle' }),
    // Left of the tick labels ("0.50" ends 6 px before the plot and is about 28 px wide).
    text(14, middle, 'moves that advanced', {
      'text-anchor': 'middle',
      transform: `rotate(-90 14 ${middle})`,
    }),
    ...legend(all),
  ];
  return svgDocument(WIDTH, HEIGHT, title, body);
}

/** SVG charts of the dragon check, written next to report.json: the models' series overlaid
 * (baseline and candidate, or "model" when the run has one), then each reference player. */
export function dragonCharts(section: DragonSection): Chart[] {
  const charts: Chart[] = [];
  const { baseline, candidate } = section;
  const models: DiagramSeries[] = [];
  if (baseline) {
    const role = candidate ? 'baseline' : 'model';
    models.push({
      label: `${role} ${baseline.model}`,
      series: baseline,
      colour: BASELINE,
      hatched: false,
    });
  }
  if (baseline && candidate) {
    models.push({
      label: `candidate ${candidate.model}`,
      series: candidate,
      colour: CANDIDATE,
      hatched: true,
    });
  }
  if (models.length > 0) {
    const title = `Reliability: ${models.map((s) => s.label).join(' vs ')}`;
    charts.push({ file: 'dragon-reliability.svg', title, svg: reliabilityDiagram(models, title) });
  }
  for (const series of section.referencePlayers) {
    const player = series.player ?? series.model;
    const title = `Reliability, reference player ${player}`;
    const only = { label: `player ${player}`, series, colour: BASELINE, hatched: false };
    charts.push({
      file: `dragon-reliability-player-${player.replace(/[^a-z0-9-]/gi, '-')}.svg`,
      title,
      svg: reliabilityDiagram([only], title),
    });
  }
  return charts;
}

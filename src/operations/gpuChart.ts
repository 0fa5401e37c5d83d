/**
 * The GPU over the run, from gpu.csv (the sampler's file, src/gpu/telemetry.ts): memory held
 * and utilisation per GPU against time, each model's series named along the time axis. Pure:
 * the file's text in, a chart out. A long run is thinned to a few hundred points per line.
 */
import { readCsv } from '../import/csv.js';
import { BLUE, MUTED, ORANGE } from '../render/palette.js';
import { type Chart, element, svgDocument, text } from '../render/svg.js';
import { num } from '../text/format.js';
import { csvText } from '../text/sinks.js';

export const GPU_CHART = 'gpu-over-time.svg';

export interface GpuPoint {
  /** Milliseconds since the first sample. */
  t: number;
  series: string;
  gpu: number;
  memoryMiB: number | null;
  utilization: number | null;
}

/** Points drawn per line at most: more add nothing a 600-pixel line can show. */
const MAX_POINTS = 400;

/** gpu.csv's rows (its header: GPU_CSV_HEADER); rows that are not of this format are skipped. */
export function parseGpuCsv(csv: string): GpuPoint[] {
  const points: GpuPoint[] = [];
  let first: number | null = null;
  const value = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));
  for (const row of readCsv(csv)) {
    const at = Date.parse(row.time ?? '');
    const gpu = row.gpu === '' ? Number.NaN : Number(row.gpu);
    if (Number.isNaN(at) || !Number.isInteger(gpu)) continue;
    first ??= at;
    points.push({
      t: at - first,
      series: csvText(row.series ?? ''),
      gpu,
      memoryMiB: value(row.memory_used_mib),
      utilization: value(row.utilization_gpu_pct),
    });
  }
  return points;
}

/** Every k-th point, so that at most MAX_POINTS remain (the last one always kept). */
function thinned<T>(points: readonly T[]): T[] {
  if (points.length <= MAX_POINTS) return [...points];
  const step = Math.ceil(points.length / MAX_POINTS);
  const out = points.filter((_, i) => i % step === 0);
  if (out.at(-1) !== points.at(-1)) out.push(points.at(-1) as T);
  return out;
}

const WIDTH = 640;
const PANEL_H = 130;
const LEFT = 56;
const RIGHT = 16;
const PLOT_W = WIDTH - LEFT - RIGHT;
const TOPS = [40, 40 + PANEL_H + 34];
const HEIGHT = TOPS[1]! + PANEL_H + 48;
const COLOURS = [BLUE.hex, ORANGE.hex, '#009E73', '#CC79A7'];

interface Panel {
  label: string;
  top: number;
  max: number;
  read(p: GpuPoint): number | null;
}

function panelLines(points: readonly GpuPoint[], panel: Panel, x: (t: number) => number): string[] {
  const y = (v: number) => panel.top + PANEL_H - (Math.min(v, panel.max) / panel.max) * PANEL_H;
  const gpus = [...new Set(points.map((p) => p.gpu))].sort((a, b) => a - b);
  const body = [0, 0.5, 1].flatMap((f) => [
    element('line', {
      x1: LEFT,
      y1: y(f * panel.max),
      x2: LEFT + PLOT_W,
      y2: y(f * panel.max),
      stroke: '#e6e6e6',
    }),
    text(LEFT - 6, y(f * panel.max) + 4, num(f * panel.max, 0), {
      'text-anchor': 'end',
      fill: MUTED,
    }),
  ]);
  gpus.forEach((gpu, i) => {
    const own = thinned(points.filter((p) => p.gpu === gpu && panel.read(p) !== null));
    if (own.length === 0) return;
    const path = own.map((p) => `${x(p.t).toFixed(1)},${y(panel.read(p) as number).toFixed(1)}`);
    body.push(
      element('polyline', {
        points: path.join(' '),
        fill: 'none',
        stroke: COLOURS[i % COLOURS.length],
        'stroke-width': 1.5,
      }),
    );
  });
  body.push(
    element('rect', {
      x: LEFT,
      y: panel.top,
      width: PLOT_W,
      height: PANEL_H,
      fill: 'none',
      stroke: '#888',
    }),
    text(LEFT, panel.top - 6, panel.label, { fill: '#222' }),
  );
  return body;
}

/** Each model's series as a labelled span under the time axis. */
function seriesSpans(points: readonly GpuPoint[], x: (t: number) => number): string[] {
  const spans: { series: string; from: number; to: number }[] = [];
  for (const p of points) {
    const last = spans.at(-1);
    if (last && last.series === p.series) last.to = p.t;
    else spans.push({ series: p.series, from: p.t, to: p.t });
  }
  const y = TOPS[1]! + PANEL_H + 16;
  return spans
    .filter((s) => s.series !== '')
    .flatMap((s) => [
      element('line', {
        x1: x(s.from),
        y1: y,
        x2: x(s.to),
        y2: y,
        stroke: '#222',
        'stroke-width': 2,
      }),
      text((x(s.from) + x(s.to)) / 2, y + 14, s.series, {
        'text-anchor': 'middle',
        fill: MUTED,
        'font-size': 10,
      }),
    ]);
}

/** The chart, or null without samples. */
export function gpuChart(points: readonly GpuPoint[]): Chart | null {
  if (points.length === 0) return null;
  const end = Math.max(1, ...points.map((p) => p.t));
  const x = (t: number) => LEFT + (t / end) * PLOT_W;
  const memory = Math.max(1024, ...points.map((p) => p.memoryMiB ?? 0));
  const title = `GPU over the run (${num(end / 60_000, 1)} min)`;
  const body = [
    text(WIDTH / 2, 18, title, { 'text-anchor': 'middle', 'font-weight': 'bold' }),
    ...panelLines(
      points,
      { label: 'memory used (MiB)', top: TOPS[0]!, max: memory, read: (p) => p.memoryMiB },
      x,
    ),
    ...panelLines(
      points,
      { label: 'utilisation (%)', top: TOPS[1]!, max: 100, read: (p) => p.utilization },
      x,
    ),
    ...seriesSpans(points, x),
  ];
  return { file: GPU_CHART, title, svg: svgDocument(WIDTH, HEIGHT, title, body) };
}

/**
 * Small charts GitHub draws inline (mermaid `xychart-beta` in a fenced block), for the job
 * summary and the PR comment where SVG files cannot be shown. Labels may come from user files
 * or models: they are reduced to a safe character set so they cannot close the quoted label,
 * the fence, or inject mermaid directives.
 */
import { machineNumber } from '../text/format.js';
import { codeSpan, escapeText } from './markdown.js';
import type { PaletteColour } from './palette.js';

/** One named series of an xychart; its colour comes from its place in `XyChart.series`. */
export interface ChartSeries {
  /** What the series is, in plain words, for the legend under the chart. */
  name: string;
  /** A model tag shown after the name, as code. */
  model?: string;
  /**
   * Bars for categories that have no order between them (domains); a line only along an
   * ordered axis (confidence bins), where the segments between points mean something.
   */
  kind: 'bar' | 'line';
  colour: PaletteColour;
  values: readonly number[];
}

export interface XyChart {
  title: string;
  /** Category labels along the x axis. */
  categories: readonly string[];
  yLabel: string;
  /** Axis range; defaults to 0 → the largest value. */
  yRange?: readonly [number, number];
  series: readonly ChartSeries[];
  /** Markdown said after the legend: how to read the chart, what was left out. */
  caption?: string;
}

const LABEL_LIMIT = 40;
const TITLE_LIMIT = 90;

export function mermaidLabel(text: string, limit = LABEL_LIMIT): string {
  const kept = text
    .normalize('NFC')
    // → ↔ ≥ ≤ × · – as escapes: the bundle stays ASCII (scripts/bundle.mjs says why).
    .replace(/[^\p{L}\p{N} ._\-+:/%()\u2192\u2194\u2265\u2264\u00d7\u00b7'\u2013]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = kept.length > limit ? `${kept.slice(0, limit - 1)}…` : kept;
  return `"${short === '' ? '?' : short}"`;
}

/** Mermaid parses these: the plain hyphen for negatives, no thousands separators. */
function value(v: number): string {
  return machineNumber(v, 4) || '0';
}

/**
 * The chart as a fenced mermaid block, then its legend as a markdown line. Mermaid's xychart
 * draws no legend: the plot colours are set by an init directive, in series order, and the
 * line under the block keys each colour (an emoji square) to the series' kind and name, so a
 * reader who cannot tell the colours apart still has the words.
 */
export function xyChart(chart: XyChart): string {
  const values = chart.series.flatMap((s) => s.values);
  const largest = values.reduce((m, v) => (Number.isFinite(v) ? Math.max(m, v) : m), 0);
  const [low, high] = chart.yRange ?? [0, largest > 0 ? largest : 1];
  const palette = chart.series.map((s) => s.colour.hex).join(', ');
  const lines = [
    '```mermaid',
    `%%{init: {"themeVariables": {"xyChart": {"plotColorPalette": "${palette}"}}}}%%`,
    'xychart-beta',
    `  title ${mermaidLabel(chart.title, TITLE_LIMIT)}`,
    `  x-axis [${chart.categories.map((c) => mermaidLabel(c)).join(', ')}]`,
    `  y-axis ${mermaidLabel(chart.yLabel)} ${value(low)} --> ${value(high)}`,
    ...chart.series.map((s) => `  ${s.kind} [${s.values.map(value).join(', ')}]`),
    '```',
  ];
  const legend = chart.series.map(legendEntry).join(' · ');
  return `${lines.join('\n')}\n\n${legend}${chart.caption ? `. ${chart.caption}` : ''}`;
}

function legendEntry(series: ChartSeries): string {
  const model = series.model === undefined ? '' : ` ${codeSpan(series.model)}`;
  return `${series.colour.key} ${series.kind === 'bar' ? 'bars' : 'line'}: ${escapeText(series.name)}${model}`;
}

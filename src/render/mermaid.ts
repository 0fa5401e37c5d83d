/**
 * Small charts GitHub draws inline (mermaid `xychart-beta` in a fenced block), for the job
 * summary and the PR comment where SVG files cannot be shown. Labels may come from user files
 * or models: they are reduced to a safe character set so they cannot close the quoted label,
 * the fence, or inject mermaid directives.
 */
import { machineNumber } from '../text/format.js';

export interface XyChart {
  title: string;
  /** Category labels along the x axis. */
  categories: readonly string[];
  yLabel: string;
  /** Axis range; defaults to 0 → the largest value. */
  yRange?: readonly [number, number];
  bars?: readonly (readonly number[])[];
  lines?: readonly (readonly number[])[];
}

const LABEL_LIMIT = 40;
const TITLE_LIMIT = 90;

export function mermaidLabel(text: string, limit = LABEL_LIMIT): string {
  const kept = text
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._\-+:/%()→↔≥≤×·'–]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const short = kept.length > limit ? `${kept.slice(0, limit - 1)}…` : kept;
  return `"${short === '' ? '?' : short}"`;
}

/** Mermaid parses these: the plain hyphen for negatives, no thousands separators. */
function value(v: number): string {
  return machineNumber(v, 4) || '0';
}

export function xyChart(chart: XyChart): string {
  const series = [...(chart.bars ?? []), ...(chart.lines ?? [])];
  const largest = series.flat().reduce((m, v) => (Number.isFinite(v) ? Math.max(m, v) : m), 0);
  const [low, high] = chart.yRange ?? [0, largest > 0 ? largest : 1];
  const lines = [
    '```mermaid',
    'xychart-beta',
    `  title ${mermaidLabel(chart.title, TITLE_LIMIT)}`,
    `  x-axis [${chart.categories.map((c) => mermaidLabel(c)).join(', ')}]`,
    `  y-axis ${mermaidLabel(chart.yLabel)} ${value(low)} --> ${value(high)}`,
    ...(chart.bars ?? []).map((bar) => `  bar [${bar.map(value).join(', ')}]`),
    ...(chart.lines ?? []).map((line) => `  line [${line.map(value).join(', ')}]`),
    '```',
  ];
  return lines.join('\n');
}

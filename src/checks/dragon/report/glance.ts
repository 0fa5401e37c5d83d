/**
 * The dragon chart of the summary's top (mermaid, drawn by GitHub in the job summary and the
 * PR comment). The section is read defensively: a chart that lacks its data is left out.
 */
import { field, finiteOrNull, listOf } from '../../../render/json.js';
import { xyChart } from '../../../render/mermaid.js';
import type { DragonSection } from '../section.js';

interface BinPoint {
  label: string;
  middle: number;
  success: number | null;
}

function bins(series: unknown): BinPoint[] {
  return listOf(field(series, 'bins')).map((bin) => {
    const low = finiteOrNull(field(bin, 'low')) ?? 0;
    const high = finiteOrNull(field(bin, 'high')) ?? 0;
    const moves = finiteOrNull(field(bin, 'moves')) ?? 0;
    return {
      label: `${low.toFixed(1)}–${high.toFixed(1)}`,
      middle: (low + high) / 2,
      success: moves > 0 ? finiteOrNull(field(bin, 'successShare')) : null,
    };
  });
}

/** Whether stated confidence matches success, per bin (mermaid, inline). */
export function dragonGlanceChart(dragon: DragonSection): string | null {
  const series = [field(dragon, 'baseline'), field(dragon, 'candidate')].filter(
    (s) => typeof s === 'object' && s !== null,
  );
  const perSeries = series.map(bins);
  const first = perSeries[0];
  if (!first || first.length === 0) return null;
  // One point per bin used by every model: a line cannot skip a gap.
  const used = first
    .map((_, i) => i)
    .filter((i) => perSeries.every((b) => b[i]?.success !== null && b[i] !== undefined));
  if (used.length < 2) return null;
  // Said under the chart: a bin left out is not a bin where the model did well or badly.
  const skipped = first.map((b, i) => (used.includes(i) ? null : b.label)).filter(Boolean);
  const chart = xyChart({
    // Mermaid labels keep no commas, and xychart draws no legend: the title names the lines.
    title:
      perSeries.length > 1
        ? 'Moves that advanced per stated-confidence bin (lines: baseline · candidate · perfect)'
        : 'Moves that advanced per stated-confidence bin (lines: the model · perfect)',
    categories: used.map((i) => first[i]?.label ?? ''),
    yLabel: 'share advanced',
    yRange: [0, 1],
    lines: [
      ...perSeries.map((b) => used.map((i) => b[i]?.success ?? 0)),
      used.map((i) => first[i]?.middle ?? 0),
    ],
  });
  if (skipped.length === 0) return chart;
  return `${chart}\n\nNot drawn: ${skipped.length === 1 ? 'the bin' : 'the bins'} ${skipped.join(', ')}, where ${perSeries.length > 1 ? 'a model' : 'the model'} stated no confidence.`;
}

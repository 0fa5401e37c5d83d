/**
 * The dragon chart of the summary's top (mermaid, drawn by GitHub in the job summary and the
 * PR comment). The section is read defensively: a chart that lacks its data is left out.
 */
import { field, finiteOrNull, listOf } from '../../../render/json.js';
import { xyChart } from '../../../render/mermaid.js';
import { BASELINE, CANDIDATE, REFERENCE } from '../../../render/palette.js';
import { num, plural } from '../../../text/format.js';
import type { DragonSection } from '../section.js';

interface BinPoint {
  label: string;
  middle: number;
  moves: number;
  success: number | null;
}

interface SeriesBins {
  name: string;
  model: string | undefined;
  bins: BinPoint[];
}

function seriesBins(series: unknown, name: string): SeriesBins {
  const model = field(series, 'model');
  const bins = listOf(field(series, 'bins')).map((bin) => {
    const low = finiteOrNull(field(bin, 'low')) ?? 0;
    const high = finiteOrNull(field(bin, 'high')) ?? 0;
    const moves = finiteOrNull(field(bin, 'moves')) ?? 0;
    return {
      label: `${num(low, 1)}–${num(high, 1)}`,
      middle: (low + high) / 2,
      moves,
      success: moves > 0 ? finiteOrNull(field(bin, 'successShare')) : null,
    };
  });
  return { name, model: typeof model === 'string' ? model : undefined, bins };
}

/** The models' series: "baseline" and "candidate", or "model" when there is one. */
function modelSeries(dragon: DragonSection): SeriesBins[] {
  const present = (s: unknown) => typeof s === 'object' && s !== null;
  const [baseline, candidate] = [field(dragon, 'baseline'), field(dragon, 'candidate')];
  if (!present(baseline)) return [];
  if (!present(candidate)) return [seriesBins(baseline, 'model')];
  return [seriesBins(baseline, 'baseline'), seriesBins(candidate, 'candidate')];
}

/**
 * What the chart leaves out and how many moves each drawn point stands on: a bin without
 * moves for one model is named, never dropped without a word.
 */
function binCaption(series: SeriesBins[], used: number[]): string {
  const first = series[0]?.bins ?? [];
  const counts = (i: number) => series.map((s) => String(s.bins[i]?.moves ?? 0)).join(' / ');
  const who = series.map((s) => s.name).join(' / ');
  const drawn = used.map((i) => `${first[i]?.label} ${counts(i)}`).join(', ');
  const left = first
    .map((bin, i) => ({ bin, i }))
    .filter(({ i }) => !used.includes(i) && series.some((s) => (s.bins[i]?.moves ?? 0) > 0));
  const empty = first.length - used.length - left.length;
  const parts = used.length > 0 ? [`Moves per bin used by every model (${who}): ${drawn}`] : [];
  if (left.length > 0) {
    const named = left.map(({ bin, i }) => `${bin.label} (${counts(i)})`).join(', ');
    parts.push(`not drawn, a model stated no confidence there (${who}): ${named}`);
  }
  if (empty > 0) parts.push(`${plural(empty, 'bin')} where no model stated a confidence`);
  const text = parts.join('; ');
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** Whether stated confidence matches success, per bin (mermaid, inline). */
export function dragonGlanceChart(dragon: DragonSection): string | null {
  const series = modelSeries(dragon);
  const first = series[0]?.bins ?? [];
  // One point per bin used by every model: a line cannot skip a gap. Bins are ordered, so
  // lines between them mean something.
  const used = first
    .map((_, i) => i)
    .filter((i) => series.every((s) => s.bins[i] !== undefined && s.bins[i]?.success !== null));
  if (used.length < 2) {
    // A line needs two points: say so, and where the moves were, rather than leave it out.
    if (!series.some((s) => s.bins.some((b) => b.moves > 0))) return null;
    return `Reliability is not drawn inline: ${series.length > 1 ? 'the models share' : 'the model used'} ${plural(used.length, 'stated-confidence bin')}, a line needs two. ${binCaption(series, used)} The full diagram is dragon-reliability.svg.`;
  }
  const colours = [BASELINE, CANDIDATE];
  return xyChart({
    title: 'Moves that advanced per stated-confidence bin',
    categories: used.map((i) => first[i]?.label ?? ''),
    yLabel: 'share advanced',
    yRange: [0, 1],
    series: [
      ...series.map((s, k) => ({
        name: s.name,
        ...(s.model === undefined ? {} : { model: s.model }),
        kind: 'line' as const,
        colour: colours[k] ?? BASELINE,
        values: used.map((i) => s.bins[i]?.success ?? 0),
      })),
      {
        name: 'perfect calibration',
        kind: 'line' as const,
        colour: REFERENCE,
        values: used.map((i) => first[i]?.middle ?? 0),
      },
    ],
    caption: binCaption(series, used),
  });
}

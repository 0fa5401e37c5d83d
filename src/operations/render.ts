/** The runner's hygiene and GPU telemetry per series, for summary.md. */
import { codeSpan, escapeText, table } from '../render/markdown.js';
import { num } from '../text/format.js';
import type { RunOperations } from './types.js';

const mib = (v: number | null) => (v === null ? '–' : `${num(v / 1024, 1)} GiB`);

export function renderOperations(ops: RunOperations): string {
  const gpu = new Map(ops.gpu.series.map((g) => [g.model, g]));
  const rows = ops.series.map((s) => {
    const g = gpu.get(s.model);
    const others =
      s.othersLoaded === null
        ? 'unknown'
        : s.othersLoaded.length === 0
          ? 'none'
          : s.othersLoaded
              .map((m) => `${codeSpan(m)}${s.unloaded.includes(m) ? ' (unloaded)' : ''}`)
              .join(', ');
    return [
      codeSpan(s.model),
      others,
      s.contextLength === null ? '–' : String(s.contextLength),
      g ? String(g.samples) : '–',
      g ? mib(g.peakMemoryMiB) : '–',
      g?.meanUtilization != null ? `${Math.round(g.meanUtilization)}%` : '–',
      g?.maxTemperatureC != null ? `${g.maxTemperatureC} °C` : '–',
      g?.meanPowerW != null ? `${num(g.meanPowerW, 0)} W` : '–',
      g ? (g.foreign.length === 0 ? 'none' : escapeText(g.foreign.join(', '))) : '–',
    ];
  });
  // Without GPU telemetry its columns are left out: the provenance says why, in one line.
  const columns = ops.gpu.available ? 9 : 3;
  return [
    '### Runner',
    '',
    table(
      [
        'series',
        'other models loaded before',
        'context (server)',
        'GPU samples',
        'peak GPU memory',
        'mean GPU use',
        'max temp.',
        'mean power',
        'other GPU processes',
      ].slice(0, columns),
      rows.map((row) => row.slice(0, columns)),
      ['l', 'l', 'r', 'r', 'r', 'r', 'r', 'r', 'l'].slice(0, columns) as ('l' | 'r')[],
    ),
    '',
    `Parallel requests: ${ops.concurrency} (runner.concurrency; Ollama does not report its OLLAMA_NUM_PARALLEL).${ops.unloadOthers ? ' Other models are unloaded before each series (runner.unload-others).' : ''}`,
  ].join('\n');
}

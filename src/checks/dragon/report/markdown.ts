/**
 * The dragon part of summary.md, rendered from the report section alone. Model tags come from the user's config: they go through escapeText.
 */

import { codeSpan, details, escapeText, table } from '../../../render/markdown.js';
import {
  interval,
  levelText,
  num,
  percent,
  points,
  pValue,
  seedRanges,
  signed,
} from '../../../text/format.js';
import type { DragonBin, DragonSection, DragonSeries, Estimate } from '../section.js';

/** Bins with fewer moves than this are drawn pale: too few to read anything into. */
export const PALE_BIN_MOVES = 5;

const pct = (v: number) => percent(v);

export function withInterval(e: Estimate | null, format: (v: number) => string): string {
  return e ? `${format(e.value)} ${interval(e.low, e.high, format)}` : '–';
}

function minus(a: number | null | undefined, b: number | null | undefined): number | null {
  return a !== null && a !== undefined && b !== null && b !== undefined ? a - b : null;
}

/**
 * What a series is called: a reference player by its name; the one model of a single-model
 * run (or of `dragon play`) "model", not "baseline"; otherwise its role. The model tag
 * follows as code (`code: false` gives it plain, for a `details` line that codes it itself).
 */
function seriesLabel(section: DragonSection, series: DragonSeries, code = true): string {
  if (series.player) return `player ${series.player}`;
  const role = section.candidate ? series.role : 'model';
  return `${role} ${code ? codeSpan(series.model) : series.model}`;
}

interface MetricRow {
  label: string;
  cell: (s: DragonSeries) => string;
  /** Candidate − baseline, rendered; omitted when a difference means nothing. */
  delta?: (before: DragonSeries, after: DragonSeries, section: DragonSection) => string;
  /** A finer metric: shown collapsed under the main ones (report.html keeps every row). */
  more?: true;
}

const METRICS: readonly MetricRow[] = [
  {
    // Decisions asked include passes, invalid answers and timeouts; calibration uses moves.
    label: 'moves scored / decisions asked',
    cell: (s) => `${s.moves} / ${s.calls}`,
  },
  {
    label: 'mean stated confidence',
    cell: (s) => percent(s.meanConfidence),
    delta: (b, a) => points(minus(a.meanConfidence, b.meanConfidence)),
  },
  {
    label: 'moves that advanced',
    cell: (s) => withInterval(s.success, pct),
    delta: (b, a) => points(minus(a.success?.value, b.success?.value)),
  },
  {
    label: 'gap (stated − advanced)',
    cell: (s) => points(s.gap),
    delta: (b, a) => points(minus(a.gap, b.gap)),
  },
  {
    label: 'Brier (0.25 = always 50%)',
    cell: (s) => num(s.brier),
    delta: (b, a) => signed(minus(a.brier, b.brier)),
  },
  {
    label: 'ECE',
    cell: (s) => withInterval(s.ece, (v) => num(v)),
    // The paired difference over the seeds both finished, with its interval.
    delta: (_b, _a, section) => withInterval(section.comparison?.ece?.difference ?? null, signed),
  },
  {
    label: 'ECE, upper-inclusive bins',
    more: true,
    cell: (s) => num(s.eceOtherEdges),
    delta: (b, a) => signed(minus(a.eceOtherEdges, b.eceOtherEdges)),
  },
  {
    label: 'reliability / resolution / uncertainty',
    more: true,
    cell: (s) =>
      s.decomposition
        ? `${num(s.decomposition.reliability)} / ${num(s.decomposition.resolution)} / ${num(s.decomposition.uncertainty)}`
        : '–',
    delta: (b, a) =>
      b.decomposition && a.decomposition
        ? (['reliability', 'resolution', 'uncertainty'] as const)
            .map((term) => signed(minus(a.decomposition?.[term], b.decomposition?.[term])))
            .join(' / ')
        : '',
  },
  {
    label: 'within-bin variance / covariance',
    more: true,
    cell: (s) =>
      s.decomposition
        ? `${num(s.decomposition.withinBinVariance, 4)} / ${num(s.decomposition.withinBinCovariance, 4)}`
        : '–',
  },
  {
    label: 'distinct confidence levels',
    more: true,
    cell: (s) => String(s.distinctConfidences),
  },
  {
    label: 'moves into a known wall',
    cell: (s) => `${s.knownWallRepeats} (${percent(s.knownWallRepeatRate)})`,
    delta: (b, a) => points(minus(a.knownWallRepeatRate, b.knownWallRepeatRate)),
  },
  {
    label: 'invalid / timeouts (of decisions)',
    cell: (s) => `${percent(s.invalidRate)} / ${percent(s.timeoutRate)}`,
  },
  {
    label: 'mean latency per decision',
    more: true,
    cell: (s) => (s.meanLatencyMs === null ? '–' : `${Math.round(s.meanLatencyMs)} ms`),
  },
  {
    label: 'games won',
    cell: (s) => `${s.wins.count} of ${s.wins.games} ${interval(s.wins.low, s.wins.high, pct)}`,
  },
  {
    label: 'treasure found / capped / stopped (invalid answers)',
    more: true,
    cell: (s) => `${s.treasureFound} / ${s.cappedGames} / ${s.invalidStops}`,
  },
];

function comparisonTable(section: DragonSection, more = false): string {
  const present = [section.baseline, section.candidate].filter(
    (s): s is DragonSeries => s !== null,
  );
  const both = section.baseline && section.candidate ? section.baseline : null;
  const header = ['metric', ...present.map((s) => seriesLabel(section, s)), ...(both ? ['Δ'] : [])];
  const rows = METRICS.filter((metric) => (metric.more ?? false) === more).map((metric) => {
    const cells = [metric.label, ...present.map((s) => metric.cell(s))];
    if (both && section.candidate)
      cells.push(metric.delta?.(both, section.candidate, section) ?? '');
    return cells;
  });
  return table(header, rows, [
    'l',
    ...present.map(() => 'r' as const),
    ...(both ? ['r' as const] : []),
  ]);
}

function binTable(bins: readonly DragonBin[], edges: string): string {
  const closing = (b: DragonBin, last: boolean) =>
    edges === 'lower-inclusive'
      ? `[${num(b.low, 1)}, ${num(b.high, 1)}${last ? ']' : ')'}`
      : `${b.index === 0 ? '[' : '('}${num(b.low, 1)}, ${num(b.high, 1)}]`;
  return table(
    ['stated confidence', 'moves', 'mean stated', 'advanced', 'Wilson 95%'],
    bins
      .filter((b) => b.moves > 0)
      .map((b) => [
        closing(b, b.index === bins.length - 1),
        `${b.moves}${b.moves < PALE_BIN_MOVES ? ' (few)' : ''}`,
        percent(b.meanConfidence),
        percent(b.successShare),
        interval(b.wilsonLow, b.wilsonHigh, pct),
      ]),
    ['l', 'r', 'r', 'r', 'r'],
  );
}

function levelsTable(series: DragonSeries): string {
  return table(
    ['stated', 'moves', 'advanced'],
    series.confidenceLevels.map((l) => [
      String(l.confidence),
      String(l.moves),
      percent(l.moves > 0 ? l.successes / l.moves : null),
    ]),
    ['r', 'r', 'r'],
  );
}

function gamesTable(series: DragonSeries): string {
  return table(
    ['seed', 'result', 'turns', 'decisions', 'cells visited', 'treasure', 'wounds', 'fingerprint'],
    series.games.map((g) => [
      String(g.seed),
      g.result,
      String(g.turns),
      String(g.decisions),
      String(g.cellsVisited),
      g.treasureFound ? 'found' : '–',
      String(g.wounds),
      `\`${g.fingerprint.slice(0, 16)}\``,
    ]),
    ['r', 'l', 'r', 'r', 'r', 'c', 'r', 'l'],
  );
}

function seriesDetails(section: DragonSection, series: DragonSeries): string {
  // Plain text: `details` escapes its summary line as HTML.
  const label = seriesLabel(section, series, false);
  const parts = [
    `Reliability bins (${section.bins.count} equal-width, ${section.bins.edges}):`,
    binTable(series.bins, section.bins.edges),
    'Most used confidence levels:',
    levelsTable(series),
    'Games:',
    gamesTable(series),
  ];
  if (series.unfinishedSeeds.length > 0) {
    parts.push(`Unfinished games (seeds): ${series.unfinishedSeeds.join(', ')}.`);
  }
  if (series.missingSeeds.length > 0) {
    parts.push(`Not played (seeds): ${series.missingSeeds.join(', ')}.`);
  }
  return details(`${label}: bins, confidence levels, games`, parts.join('\n\n'), [series.model]);
}

function referenceTable(section: DragonSection): string {
  const rows = section.referencePlayers.map((p) => [
    escapeText(p.player ?? p.model),
    String(p.moves),
    percent(p.meanConfidence),
    withInterval(p.success, pct),
    withInterval(p.ece, (v) => num(v)),
    num(p.brier),
    percent(p.knownWallRepeatRate),
  ]);
  const instrument = section.instrument;
  const separations = (instrument?.separations ?? [])
    .map(
      (s) =>
        `${s.worse} − ${s.better} ${signed(s.difference.value)} ${interval(s.difference.low, s.difference.high, (v) => signed(v))}`,
    )
    .join('; ');
  const verdict = !instrument
    ? ''
    : instrument.ranked
      ? `\n\nThe instrument sees what it was built to see: overconfident is worse calibrated than the other players, paired 95% intervals above 0 (ECE ${separations}). careful and random are not ranked against each other: random's 0.5 is nearly calibrated whenever half its moves advance.`
      : `\n\n**The instrument failed its control**: overconfident was not measurably worse calibrated than every other player (ECE ${separations}; each interval must lie above 0).`;
  return `${table(
    ['reference player', 'moves', 'mean stated', 'advanced', 'ECE', 'Brier', 'known-wall moves'],
    rows,
    ['l', 'r', 'r', 'r', 'r', 'r', 'r'],
  )}${verdict}`;
}

/** Markdown for the dragon part of summary.md, rendered from report.json alone. */
export function renderDragonSection(section: DragonSection): string {
  const out: string[] = ['### dragon — calibration of stated confidence'];
  out.push(
    `Protocol \`${section.protocol}\`, prompt \`${section.promptVersion}\` (SHA-256 \`${section.promptSha256.slice(0, 16)}…\`), hints: ${section.hints}, ${section.walls} walls, seeds ${seedRanges(section.seeds)}. ` +
      `Event predicted: ${section.calibrationEvent}. ECE over ${section.bins.count} equal-width bins (${section.bins.edges}), 95% interval by bootstrap over ${section.bootstrap.resampled} (${section.bootstrap.replicates} replicates); shares with Wilson 95% intervals.`,
  );
  const perturbed = [section.baseline, section.candidate].filter(
    (s): s is DragonSeries => s?.perturbed === true,
  );
  for (const s of perturbed) {
    out.push(
      `> **Measurement perturbed**: ${s.timeouts} of ${s.calls} decisions of ${seriesLabel(section, s)} timed out (${percent(s.timeoutRate)}). Its numbers are shown but the verdict is inconclusive.`,
    );
  }
  if (section.baseline || section.candidate) {
    out.push(
      comparisonTable(section),
      details(
        'More metrics: ECE at the other bin edges, Brier decomposition, confidence levels, latency, treasure',
        comparisonTable(section, true),
      ),
    );
    const comparison = section.comparison;
    if (comparison?.ece) {
      const level = levelText(comparison.level);
      const unpaired = comparison.onlyBefore.length + comparison.onlyAfter.length;
      out.push(
        `Δ ECE is candidate − baseline over the ${comparison.pairedSeeds.length} seeds both finished (ECE ${num(comparison.ece.after)} vs ${num(comparison.ece.before)} on those games), with a ${level} paired bootstrap interval; the gate's test is a one-sided paired permutation test (p = ${pValue(comparison.ece.pValue, 4)}), a regression at p ≤ ${pValue(section.ruleFalseAlarmRate, 4)} with a rise above the allowed increase${unpaired > 0 ? `; ${unpaired} games played by one model only are not compared` : ''}.`,
      );
    }
    if (section.detectableEceRise !== null) {
      const seeds = comparison?.pairedSeeds.length ?? section.seeds.length;
      // Collapsed: the gate rules' table says the same smallest rise.
      out.push(
        details(
          'What a pass rules out',
          `At this run's noise the ECE rule catches, with 80% power, a rise of ${num(section.detectableEceRise)} over ${seeds} seeds (a pass rules out rises that large, not smaller ones; more seeds see smaller).`,
        ),
      );
    }
  } else {
    out.push('No model game in the sample log.');
  }
  for (const s of [section.baseline, section.candidate]) if (s) out.push(seriesDetails(section, s));
  if (section.referencePlayers.length > 0) {
    out.push(details('Reference players (instrument controls)', referenceTable(section)));
  }
  for (const notice of section.notices) out.push(`> ${escapeText(notice)}`);
  return `${out.join('\n\n')}\n`;
}

/**
 * Records → the dragon section of the report. Pure: the sample log and the definitions are
 * all it reads; reference players missing from the log are played here (deterministically).
 */
import { mean } from 'simple-statistics';
import type { SampleRecord } from '../../sampleLog/index.js';
import {
  addTally,
  type BinTally,
  binForecasts,
  clusterBootstrapEce,
  confidenceLevels,
  DEFAULT_BINS,
  DEFAULT_EDGES,
  eceFromTally,
  emptyTally,
  expectedCalibrationError,
  type Forecast,
  murphyDecomposition,
  pairedClusterBootstrapEceDifference,
  tallyBins,
} from '../../stats/calibration.js';
import {
  clusterBootstrapRate,
  pairedClusterBootstrapRateDifference,
  pooledDifference,
  pooledRate,
  type RateCluster,
} from '../../stats/clusterRatio.js';
import { detectableShift } from '../../stats/detectableShift.js';
import { normalQuantile } from '../../stats/normal.js';
import { pairedPermutationTest } from '../../stats/pairedPermutation.js';
import { wilsonInterval } from '../../stats/wilson.js';
import type { ModelPair } from '../types.js';
import type { DragonDefinitions } from './definitions.js';
import { playReferenceGames, REFERENCE_PROMPT, referenceModel } from './players.js';
import { type DragonCallRecord, type DragonGameRecord, isDragonRecord } from './records.js';
import type {
  DragonBin,
  DragonComparison,
  DragonGame,
  DragonSection,
  DragonSeparation,
  DragonSeries,
  Estimate,
  PairedMeasure,
} from './section.js';

export const CALIBRATION_EVENT =
  'the move reaches a free cell (no wall, no border), whatever happens there afterwards';

const SHOWN_CONFIDENCE_LEVELS = 10;

/** The moves calibration is measured on: valid, not pass, with a stated confidence. */
export function forecastOf(record: DragonCallRecord): Forecast | null {
  if (record.status !== 'ok' || record.move === 'pass' || record.confidence === null) return null;
  return {
    confidence: record.confidence,
    success: record.outcome !== 'wall' && record.outcome !== 'known_wall',
  };
}

interface SeriesRecords {
  model: string;
  player: string | null;
  calls: DragonCallRecord[];
  games: DragonGameRecord[];
}

export function analyseDragon(
  records: readonly SampleRecord[],
  definitions: DragonDefinitions,
  models: ModelPair,
): DragonSection {
  const notices: string[] = [];
  const bySeries = groupRecords(records, definitions, notices);

  // Reference players missing from the log are played here (deterministically).
  for (const player of definitions.referencePlayers) {
    if (bySeries.has(referenceModel(player))) continue;
    const played = playReferenceGames(player, definitions.seeds, definitions.walls);
    for (const [key, value] of groupRecords(played, definitions, notices)) bySeries.set(key, value);
  }

  const seriesOf = (model: string, role: DragonSeries['role']): DragonSeries | null => {
    const found = bySeries.get(model);
    return found ? summariseSeries(found, role, definitions) : null;
  };
  const baseline = seriesOf(models.baseline, 'baseline');
  const candidate = models.candidate ? seriesOf(models.candidate, 'candidate') : null;
  const bootstrap = {
    replicates: definitions.bootstrapReplicates,
    seed: definitions.bootstrapSeed,
  };
  const comparison = baseline && candidate ? compareSeries(baseline, candidate, bootstrap) : null;
  const referencePlayers = [...bySeries.values()]
    .filter((s) => s.player !== null)
    .sort((a, b) => a.model.localeCompare(b.model))
    .map((s) => summariseSeries(s, 'reference', definitions));

  return {
    check: 'dragon',
    protocol: definitions.protocol,
    promptVersion: definitions.promptVersion,
    promptSha256: definitions.promptSha256,
    hints: definitions.hints,
    walls: definitions.walls,
    seeds: [...definitions.seeds],
    calibrationEvent: CALIBRATION_EVENT,
    bins: { count: DEFAULT_BINS, edges: DEFAULT_EDGES },
    bootstrap: { ...bootstrap, resampled: 'games' },
    baseline,
    candidate,
    comparison,
    referencePlayers,
    instrument: instrumentCheck(referencePlayers, bootstrap),
    ruleFalseAlarmRate: definitions.ruleFalseAlarmRate,
    detectableEceRise: detectableEceRise(comparison, baseline, definitions),
    notices,
  };
}

/**
 * Groups records by model. Which record of a decision or a game counts is the sample log's
 * rule, applied before (the latest, under the model's current digest); decisions past the end of a finished
 * game are leftovers of a replaced attempt and are dropped. Records the definitions exclude
 * are counted in notices.
 */
function groupRecords(
  records: readonly SampleRecord[],
  definitions: DragonDefinitions,
  notices: string[],
): Map<string, SeriesRecords> {
  const seeds = new Set(definitions.seeds);
  const latest = new Map<string, DragonCallRecord | DragonGameRecord>();
  const otherPrompt = new Map<string, number>();
  const otherSeeds = new Map<string, number>();
  for (const record of records) {
    if (!isDragonRecord(record)) continue;
    const isPlayer = record.player !== undefined;
    const expectedPrompt = isPlayer ? REFERENCE_PROMPT : definitions.promptSha256;
    const leftOut =
      record.prompt_sha256 !== expectedPrompt
        ? otherPrompt
        : !seeds.has(record.game)
          ? otherSeeds
          : null;
    if (leftOut) {
      leftOut.set(record.model, (leftOut.get(record.model) ?? 0) + 1);
      continue;
    }
    const which = record.kind === 'game' ? 'game' : record.decision;
    latest.set(`${record.model}\u0000${record.game}\u0000${which}`, record);
  }
  const series = new Map<string, SeriesRecords>();
  for (const record of latest.values()) {
    const entry = series.get(record.model) ?? {
      model: record.model,
      player: record.player ?? null,
      calls: [],
      games: [],
    };
    series.set(record.model, entry);
    if (record.kind === 'game') entry.games.push(record);
    else entry.calls.push(record);
  }
  for (const entry of series.values()) {
    const length = new Map(entry.games.map((g) => [g.game, g.decisions]));
    entry.calls = entry.calls.filter((c) => c.decision < (length.get(c.game) ?? Infinity));
  }
  for (const [model, count] of otherPrompt) {
    notices.push(
      `${count} records of ${model} were written with another prompt than ${definitions.promptVersion} (hints: ${definitions.hints}) and are left out; prompt variants are compared in separate runs on the same seeds, never mixed.`,
    );
  }
  for (const [model, count] of otherSeeds) {
    notices.push(
      `${count} records of ${model} belong to seeds outside dragon.seeds and are left out.`,
    );
  }
  return series;
}

function estimate(successes: number, trials: number): Estimate | null {
  if (trials === 0) return null;
  const { low, high } = wilsonInterval(successes, trials);
  return { value: successes / trials, low, high };
}

function rate(count: number, total: number): number | null {
  return total > 0 ? count / total : null;
}

function summariseSeries(
  series: SeriesRecords,
  role: DragonSeries['role'],
  definitions: DragonDefinitions,
): DragonSeries {
  const calls = [...series.calls].sort((a, b) => a.game - b.game || a.decision - b.decision);
  const gameRecords = [...series.games].sort((a, b) => a.game - b.game);
  const { forecasts, bySeed, repeatsBySeed } = forecastsBySeed(calls);
  const knownWallRepeats = [...repeatsBySeed.values()].reduce((sum, n) => sum + n, 0);
  const moves = forecasts.length;
  const count = (status: DragonCallRecord['status']) =>
    calls.filter((c) => c.status === status).length;
  const invalid = count('invalid');
  const timeouts = count('timeout');
  const games = (test: (g: DragonGameRecord) => boolean) => gameRecords.filter(test).length;
  const meanConfidence = moves > 0 ? mean(forecasts.map((f) => f.confidence)) : null;
  const success = estimate(forecasts.filter((f) => f.success).length, moves);
  const { bootstrapReplicates: replicates, bootstrapSeed: seed } = definitions;
  const bootstrap = { replicates, seed };
  const perSeed = [...bySeed.values()];
  const ece = clusterBootstrapEce(
    perSeed.map((list) => tallyBins(list)),
    bootstrap,
  );
  const decomposition = moves > 0 ? murphyDecomposition(forecasts) : null;
  const brierInterval = clusterBootstrapRate(
    perSeed.map((list) => ({ sum: squaredErrors(list), count: list.length })),
    bootstrap,
    { floor: 0, ceiling: 1 },
  );
  const finished = new Set(gameRecords.map((g) => g.game));
  const played = new Set(calls.map((c) => c.game));
  const wins = games((g) => g.result === 'won');
  return {
    model: series.model,
    role,
    player: series.player,
    digest: calls[0]?.digest ?? gameRecords[0]?.digest ?? null,
    calls: calls.length,
    moves,
    passes: calls.filter((c) => c.status === 'ok' && c.move === 'pass').length,
    invalid,
    timeouts,
    errors: count('error'),
    invalidRate: rate(invalid, calls.length),
    timeoutRate: rate(timeouts, calls.length),
    perturbed: calls.length > 0 && timeouts / calls.length > definitions.maxTimeoutShare,
    meanLatencyMs:
      series.player === null && calls.length > 0 ? mean(calls.map((c) => c.latency_ms)) : null,
    meanConfidence,
    success,
    gap: meanConfidence !== null && success ? meanConfidence - success.value : null,
    brier: decomposition ? decomposition.brier : null,
    brierInterval: brierInterval && estimateOf(brierInterval),
    decomposition,
    ece: ece && estimateOf(ece),
    eceOtherEdges:
      moves > 0 ? expectedCalibrationError(forecasts, DEFAULT_BINS, 'upper-inclusive') : null,
    resolution: decomposition ? decomposition.resolution : null,
    distinctConfidences: new Set(forecasts.map((f) => f.confidence)).size,
    confidenceLevels: confidenceLevels(forecasts)
      .slice(0, SHOWN_CONFIDENCE_LEVELS)
      .map((l) => ({ confidence: l.confidence, moves: l.count, successes: l.successes })),
    knownWallRepeats,
    knownWallRepeatRate: rate(knownWallRepeats, moves),
    games: gameRecords.map((g) => gameRow(g, bySeed.get(g.game) ?? [], repeatsBySeed)),
    unfinishedSeeds: [...played].filter((s) => !finished.has(s)).sort((a, b) => a - b),
    missingSeeds: definitions.seeds.filter((s) => !played.has(s) && !finished.has(s)),
    wins: {
      ...(estimate(wins, gameRecords.length) ?? { value: 0, low: 0, high: 1 }),
      count: wins,
      games: gameRecords.length,
    },
    treasureFound: games((g) => g.treasure_found),
    cappedGames: games((g) => g.capped),
    invalidStops: games((g) => g.result === 'invalid'),
    bins: binTable(forecasts),
  };
}

/** The valid moves as forecasts, by seed, and the moves into a wall the model already knew. */
function forecastsBySeed(calls: readonly DragonCallRecord[]) {
  const forecasts: Forecast[] = [];
  const bySeed = new Map<number, Forecast[]>();
  const repeatsBySeed = new Map<number, number>();
  for (const call of calls) {
    const forecast = forecastOf(call);
    if (!forecast) continue;
    forecasts.push(forecast);
    const list = bySeed.get(call.game) ?? [];
    list.push(forecast);
    bySeed.set(call.game, list);
    if (call.outcome === 'known_wall') {
      repeatsBySeed.set(call.game, (repeatsBySeed.get(call.game) ?? 0) + 1);
    }
  }
  return { forecasts, bySeed, repeatsBySeed };
}

function gameRow(
  g: DragonGameRecord,
  own: readonly Forecast[],
  repeatsBySeed: ReadonlyMap<number, number>,
): DragonGame {
  return {
    seed: g.game,
    result: g.result,
    turns: g.turns,
    decisions: g.decisions,
    cellsVisited: g.cells_visited,
    treasureFound: g.treasure_found,
    wounds: g.wounds,
    fingerprint: g.fingerprint,
    moves: own.length,
    successes: own.filter((f) => f.success).length,
    tally: tallyBins(own),
    brierSum: squaredErrors(own),
    knownWallRepeats: repeatsBySeed.get(g.game) ?? 0,
  };
}

function binTable(forecasts: readonly Forecast[]): DragonBin[] {
  return binForecasts(forecasts).map((bin) => {
    const wilson = bin.count > 0 ? wilsonInterval(bin.successes, bin.count) : null;
    return {
      index: bin.index,
      low: bin.low,
      high: bin.high,
      moves: bin.count,
      successes: bin.successes,
      meanConfidence: bin.meanConfidence,
      successShare: bin.successShare,
      wilsonLow: wilson ? wilson.low : null,
      wilsonHigh: wilson ? wilson.high : null,
    };
  });
}

/** z of a two-sided 95% interval: its half-width over this is the standard error. */
const Z95 = normalQuantile(0.975);

function detectableEceRise(
  comparison: DragonComparison | null,
  baseline: DragonSeries | null,
  definitions: Pick<DragonDefinitions, 'ruleFalseAlarmRate' | 'maxEceIncrease'>,
): number | null {
  const paired = comparison?.ece?.difference;
  const se = paired
    ? (paired.high - paired.low) / (2 * Z95)
    : baseline?.ece
      ? (Math.SQRT2 * (baseline.ece.high - baseline.ece.low)) / (2 * Z95)
      : null;
  return se === null
    ? null
    : detectableShift(se, definitions.ruleFalseAlarmRate, definitions.maxEceIncrease);
}

function squaredErrors(forecasts: readonly Forecast[]): number {
  return forecasts.reduce((sum, f) => sum + (f.confidence - (f.success ? 1 : 0)) ** 2, 0);
}

/** A game as a comparison needs it; a previous report's games may lack the newer sums. */
export interface ComparableGame {
  seed: number;
  tally: BinTally;
  brierSum?: number | undefined;
  knownWallRepeats?: number | undefined;
}

/** What a comparison needs of a series; a previous report's series has the same fields. */
export interface ComparableSeries {
  games: readonly ComparableGame[];
}

/** The cluster bootstrap of a comparison: its replicates and seed. */
export type ComparisonOptions = { replicates: number; seed: number };

/** Coverage of the difference intervals shown; the rules read the permutation p-values. */
export const COMPARISON_LEVEL = 0.95;

/** Above this many paired seeds the permutation test draws swaps instead of listing them. */
const PERMUTATION_DRAWS = 4000;

function movesOf(tally: BinTally): number {
  return tally.count.reduce((sum, c) => sum + c, 0);
}

function estimateOf(interval: { estimate: number; low: number; high: number }): Estimate {
  return { value: interval.estimate, low: interval.low, high: interval.high };
}

/**
 * `after` minus `before`, over the seeds both finished and nothing else: each metric of each
 * side is recomputed on those games, and each replicate of the bootstrap draws the same seeds
 * for both, so maze-to-maze variation cancels out. Games of one side only are listed, not used.
 */
export function compareSeries(
  before: ComparableSeries,
  after: ComparableSeries,
  options: ComparisonOptions,
): DragonComparison {
  const earlier = new Map(before.games.map((g) => [g.seed, g]));
  const later = new Map(after.games.map((g) => [g.seed, g]));
  const pairedSeeds = [...later.keys()].filter((s) => earlier.has(s)).sort((a, b) => a - b);
  const pairs = pairedSeeds.map(
    (s) => [later.get(s) as ComparableGame, earlier.get(s) as ComparableGame] as const,
  );
  const level = COMPARISON_LEVEL;
  const bootstrap = { ...options, level };
  return {
    level,
    pairedSeeds,
    onlyBefore: [...earlier.keys()].filter((s) => !later.has(s)).sort((a, b) => a - b),
    onlyAfter: [...later.keys()].filter((s) => !earlier.has(s)).sort((a, b) => a - b),
    ece: pairedEce(pairs, bootstrap),
    brier: pairedRate(pairs, (g) => g.brierSum, bootstrap),
    knownWallRepeats: pairedRate(pairs, (g) => g.knownWallRepeats, bootstrap),
  };
}

/** Games of one seed, `after` first. */
type GamePair = readonly [ComparableGame, ComparableGame];
type PairedBootstrap = { replicates: number; seed: number; level: number };

/**
 * A measure of both sides (`side(0)` after, `side(1)` before) with its bootstrap difference,
 * and the paired permutation test of `statistic` over the pairs; null without a difference.
 */
function pairedMeasure(
  side: (side: 0 | 1) => number,
  difference: { estimate: number; low: number; high: number } | null,
  pairs: number,
  statistic: (swapped: readonly boolean[]) => number,
  seed: number,
): PairedMeasure | null {
  if (!difference) return null;
  const { pValue } = pairedPermutationTest(pairs, statistic, { draws: PERMUTATION_DRAWS, seed });
  return { before: side(1), after: side(0), difference: estimateOf(difference), pValue };
}

/** ECE of both sides over the paired games, its bootstrap difference and permutation test. */
function pairedEce(pairs: readonly GamePair[], bootstrap: PairedBootstrap): PairedMeasure | null {
  const pooled = (tallies: readonly BinTally[], bins = DEFAULT_BINS) => {
    const total = emptyTally(bins);
    for (const tally of tallies) addTally(total, tally);
    return total;
  };
  const bins = pairs[0]?.[0].tally.count.length ?? DEFAULT_BINS;
  return pairedMeasure(
    (side) => eceFromTally(pooled(pairs.map((pair) => pair[side].tally))) ?? Number.NaN,
    pairedClusterBootstrapEceDifference(
      pairs.map(([a, b]) => [a.tally, b.tally] as const),
      bootstrap,
    ),
    pairs.length,
    (swapped) => {
      const left = pairs.map(([a, b], i) => (swapped[i] ? b : a).tally);
      const right = pairs.map(([a, b], i) => (swapped[i] ? a : b).tally);
      return (eceFromTally(pooled(left, bins)) ?? 0) - (eceFromTally(pooled(right, bins)) ?? 0);
    },
    bootstrap.seed,
  );
}

/** A per-move rate (summed per game) of both sides; null when a game lacks the sum. */
function pairedRate(
  pairs: readonly GamePair[],
  sumOf: (g: ComparableGame) => number | undefined,
  bootstrap: PairedBootstrap,
): PairedMeasure | null {
  const clusters: (readonly [RateCluster, RateCluster])[] = [];
  for (const [a, b] of pairs) {
    const sa = sumOf(a);
    const sb = sumOf(b);
    if (sa === undefined || sb === undefined) return null;
    clusters.push([
      { sum: sa, count: movesOf(a.tally) },
      { sum: sb, count: movesOf(b.tally) },
    ]);
  }
  return pairedMeasure(
    (side) => pooledRate(clusters.map((c) => c[side])) ?? Number.NaN,
    pairedClusterBootstrapRateDifference(clusters, bootstrap),
    clusters.length,
    (swapped) =>
      pooledDifference(clusters.length, (i) => {
        const [x, y] = clusters[i] as readonly [RateCluster, RateCluster];
        return swapped[i] ? [y, x] : [x, y];
      }) ?? 0,
    bootstrap.seed,
  );
}

/**
 * The reference players must rank as built: overconfident (0.95 on moves that advance about
 * half the time) measurably worse calibrated than careful and than random, by a paired
 * interval over the seeds that excludes 0. careful is not ranked against random: random's 0.5
 * is nearly calibrated whenever about half its moves advance, so on short series either can
 * come first and a point ranking flapped (13 of 200 ten-seed windows). A check that cannot see
 * the difference it was made to see is broken.
 */
function instrumentCheck(
  players: readonly DragonSeries[],
  bootstrap: ComparisonOptions,
): DragonSection['instrument'] {
  const measured = players.filter((p) => p.ece !== null && p.player !== null);
  const overconfident = measured.find((p) => p.player === 'overconfident');
  const others = measured.filter((p) => p.player === 'careful' || p.player === 'random');
  if (!overconfident || others.length === 0) return null;
  const separations: DragonSeparation[] = others.map((better) => {
    const comparison = compareSeries(better, overconfident, bootstrap);
    const none = { value: Number.NaN, low: Number.NaN, high: Number.NaN };
    const difference = comparison.ece?.difference ?? none;
    return {
      worse: 'overconfident',
      better: better.player as string,
      difference,
      separated: difference.low > 0,
    };
  });
  const order = [overconfident, ...others]
    .sort((a, b) => (a.ece?.value ?? 0) - (b.ece?.value ?? 0))
    .map((p) => p.player as string);
  return { ranked: separations.every((s) => s.separated), order, separations };
}

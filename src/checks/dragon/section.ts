/**
 * The `dragon` part of report.json: plain JSON, written by `analyse` and rendered by
 * report/markdown.ts. Rates are fractions (0.25 = 25%).
 */
import type { BinEdges, BinTally, MurphyDecomposition } from '../../stats/calibration.js';
import type { HintsVariant } from './prompt.js';

/** A value with its 95% interval. */
export interface Estimate {
  value: number;
  low: number;
  high: number;
}

export interface DragonBin {
  index: number;
  low: number;
  high: number;
  moves: number;
  successes: number;
  meanConfidence: number | null;
  successShare: number | null;
  /** Wilson 95% interval of the success share; null for an empty bin. */
  wilsonLow: number | null;
  wilsonHigh: number | null;
}

export interface DragonGame {
  seed: number;
  result: 'won' | 'lost' | 'capped' | 'invalid';
  turns: number;
  decisions: number;
  cellsVisited: number;
  treasureFound: boolean;
  wounds: number;
  fingerprint: string;
  moves: number;
  successes: number;
  /** This game's moves summed per confidence bin, so a later report can pair games by seed. */
  tally: BinTally;
  /** Σ (stated − outcome)² over this game's moves: its Brier score times its moves. */
  brierSum: number;
  /** This game's moves into a wall already known (or the border). */
  knownWallRepeats: number;
}

export interface DragonConfidenceLevel {
  confidence: number;
  moves: number;
  successes: number;
}

/** Everything measured for one model or reference player. */
export interface DragonSeries {
  model: string;
  role: 'baseline' | 'candidate' | 'reference';
  /** Reference player name; null for a model. */
  player: string | null;
  digest: string | null;
  /** Decisions requested (every status). */
  calls: number;
  /** Valid decisions that were not `pass`: the ones calibration is measured on. */
  moves: number;
  passes: number;
  invalid: number;
  timeouts: number;
  errors: number;
  invalidRate: number | null;
  timeoutRate: number | null;
  /** More timeouts than the configured share: the series is not trusted. */
  perturbed: boolean;
  /** Over calls; warm-up is never in the log. Null for reference players. */
  meanLatencyMs: number | null;
  meanConfidence: number | null;
  /** Share of moves that reached a free cell, with its Wilson 95% interval. */
  success: Estimate | null;
  /** meanConfidence − success share: positive = overconfident. */
  gap: number | null;
  brier: number | null;
  /** The Brier score with its 95% cluster-bootstrap interval over games. */
  brierInterval: Estimate | null;
  decomposition: MurphyDecomposition | null;
  /**
   * ECE with the bins of the section, 95% cluster-bootstrap interval over games: the
   * bias-corrected percentile interval, which contains the estimate (the plain percentile
   * interval of an ECE sits above it).
   */
  ece: Estimate | null;
  /** The same ECE with the other edge convention, for comparison with other tools. */
  eceOtherEdges: number | null;
  resolution: number | null;
  distinctConfidences: number;
  /** Most used stated values (up to 10), with how often they were right. */
  confidenceLevels: DragonConfidenceLevel[];
  /** Moves into a wall already discovered or the border. */
  knownWallRepeats: number;
  knownWallRepeatRate: number | null;
  games: DragonGame[];
  /** Seeds with decisions in the log but no finished game (an interrupted run). */
  unfinishedSeeds: number[];
  /** Configured seeds with nothing in the log. */
  missingSeeds: number[];
  wins: Estimate & { count: number; games: number };
  treasureFound: number;
  cappedGames: number;
  /** Games stopped after a run of invalid answers (dragon.max-consecutive-invalid). */
  invalidStops: number;
  bins: DragonBin[];
}

/** One metric of two series over the same games (paired by seed): later − earlier. */
export interface PairedMeasure {
  /** The earlier series (baseline, or the previous report) over the paired games only. */
  before: number;
  /** The later series (candidate, or this run) over the paired games only. */
  after: number;
  /** after − before, with its paired cluster-bootstrap interval at `level`. */
  difference: Estimate;
  /**
   * One-sided paired permutation p-value of a rise (after worse than before): the share of the
   * swaps of the two series' games within seeds whose rise is at least the observed one. Exact
   * under "no change"; the failing rules compare it with their false-alarm rate.
   */
  pValue: number;
}

export interface DragonComparison {
  /** Coverage of the difference intervals (0.95). */
  level: number;
  /** Seeds both series finished: every comparison is made over these games only. */
  pairedSeeds: number[];
  /** Finished by the earlier series only / the later one only: not compared. */
  onlyBefore: number[];
  onlyAfter: number[];
  ece: PairedMeasure | null;
  /** Null when a side lacks per-game Brier sums (a report written before they were kept). */
  brier: PairedMeasure | null;
  /** Share of moves into a known wall; null as for brier. */
  knownWallRepeats: PairedMeasure | null;
}

/** The instrument control: overconfident must be measurably worse calibrated than the others. */
export interface DragonSeparation {
  worse: string;
  better: string;
  /** ECE(worse) − ECE(better), paired over the seeds, 95% interval. */
  difference: Estimate;
  separated: boolean;
}

export interface DragonSection {
  check: 'dragon';
  protocol: string;
  promptVersion: string;
  promptSha256: string;
  hints: HintsVariant;
  walls: number;
  seeds: number[];
  /** What calibration predicts: the move reaches a free cell. */
  calibrationEvent: string;
  bins: { count: number; edges: BinEdges };
  bootstrap: { replicates: number; seed: number; resampled: 'games' };
  baseline: DragonSeries | null;
  candidate: DragonSeries | null;
  comparison: DragonComparison | null;
  referencePlayers: DragonSeries[];
  /**
   * Whether the reference players rank as built: overconfident's ECE above each other
   * player's, with a paired interval that excludes 0. careful and random are not ranked against
   * each other (random's 0.5 is nearly calibrated whenever half its moves advance). `order` is
   * by ECE, lowest first. Null without overconfident and another reference player.
   */
  instrument: { ranked: boolean; order: string[]; separations: DragonSeparation[] } | null;
  /**
   * The false-alarm rate allotted to each failing rule of the check: the check's share of the
   * run's budget split between its failing rules.
   */
  ruleFalseAlarmRate: number;
  /**
   * The smallest ECE rise the ece-increase rule detects with 80% power at this run's noise
   * (the paired comparison's, else √2 × the baseline's own interval); null without moves.
   */
  detectableEceRise: number | null;
  /** Things a reader must know (records left out, and why). */
  notices: string[];
}

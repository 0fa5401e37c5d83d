/** The speed check's section of report.json: plain JSON, rendered by its report alone. */

/** Median and tail of one figure over a model's timed answers. */
export interface Spread {
  /** Answers the figure was measured on. */
  n: number;
  median: number | null;
  p90: number | null;
  p99: number | null;
}

/** One model's figures over its answers with usable timings. */
export interface SpeedModelFigures {
  model: string;
  /** Answers with usable timings. */
  timed: number;
  decodeTokensPerSecond: Spread;
  promptTokensPerSecond: Spread;
  firstTokenMs: Spread;
  outputTokens: Spread;
  wallMs: Spread;
  /**
   * Where the model sat, from the server (/api/ps) once per series: the most GPU memory and
   * the largest share in system memory over its series, and how many distinct readings.
   * Null when no record says.
   */
  residency: { vramMib: number; offloadedShare: number; readings: number } | null;
}

/**
 * Candidate ÷ baseline of one figure, paired over items: per item the ratio of the medians of
 * its samples, then the median ratio over items with one-sided distribution-free bounds.
 */
export interface PairedRatio {
  items: number;
  ratio: number;
  /** Lower bound at `alpha`; null when there are too few items for one. */
  low: number | null;
  /** Upper bound at `alpha`; null likewise. */
  high: number | null;
  /** One-sided level of each bound. */
  alpha: number;
}

/**
 * How the server's drift over the run is taken out: the log's order stands for time, a common
 * trend of the log time per token is fitted within each model's requests, and every request is
 * brought to the run's start. `shift` is the trend's effect on the log ratio (candidate position
 * minus baseline position times the slope) and `shiftSe` its standard error, which widens the
 * bounds.
 */
export interface DriftCorrection {
  /** 'trend': fitted and applied; 'none': too few items to fit one (bounds not widened). */
  method: 'trend' | 'none';
  /** Change of the log time per token from the first to the last request of the run. */
  slope: number | null;
  slopeSe: number | null;
  /** Mean position of the candidate's items minus the baseline's, as a share of the run. */
  separation: number;
}

export interface SpeedComparison {
  /** Per-token decode time, candidate ÷ baseline (above 1: slower). */
  decode: PairedRatio | null;
  /** Per-token prompt processing time, candidate ÷ baseline. */
  prompt: PairedRatio | null;
  /** Output tokens per answer, candidate ÷ baseline. */
  verbosity: PairedRatio | null;
  decodeDrift: DriftCorrection;
  promptDrift: DriftCorrection;
}

export interface SpeedSection {
  check: 'speed';
  /** Shown above the figures: e.g. that the log holds no timings. */
  notice: string | null;
  /** Ok answers whose record carries no timings (older logs, servers that give none). */
  untimed: number;
  /** Answers whose timings were refused as impossible (negative rates, absurd durations). */
  excluded: number;
  models: SpeedModelFigures[];
  /** Null in a single-model run or when no item was timed on both models. */
  comparison: SpeedComparison | null;
}

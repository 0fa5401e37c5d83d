/**
 * A check's rule on the nights of the history (`output.history`, single-model runs), as
 * `Check.nightlyRule`: it reads the check's numbers of each night (`Check.nightly`) and tests
 * their trend, e.g. dragon's ece-drift on the ECE of the last nights. The history part of
 * report.json keeps the rule's analysis under its key; the rule says what it found, what it is
 * as a test, and may draw the trend beside the report.
 */
import type { GateConfig } from '../config/schema.js';
import type { Chart } from '../render/svg.js';
import type { EvaluatedGateRule, GateFinding } from './findings.js';
import type { NightlyValues } from './nightly.js';

/**
 * The nightly rules' analyses in report.json's history part, each under its rule's key. Each
 * check with a nightly rule adds its own, as it adds its numbers to `NightlyValues`.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each check's nightly rule
export interface NightlyAnalyses {}

/** A night as a trend chart shows it: its date, whether the model was re-pulled, its numbers. */
export type TrendNight = NightlyValues & { date: string; rePulled: boolean };

/** What a rule's trend chart is drawn from: the nights shown and the rule's analysis. */
export interface NightlyTrend<Analysis> {
  model: string;
  /** Oldest first, tonight last. */
  nights: readonly TrendNight[];
  analysis: Analysis;
}

export interface NightlyRule<Analysis> {
  /** Its field of the history part of report.json, e.g. "drift". */
  key: string;
  /** Whether a night has the number the rule reads: without tonight's, it finds nothing. */
  measured(night: NightlyValues): boolean;
  /** The rule on one model's nights, oldest first, tonight last (every night of the file). */
  analyse(nights: readonly NightlyValues[], config: GateConfig): Analysis;
  /** Tonight's finding, a sentence with its numbers. */
  finding(analysis: Analysis): GateFinding;
  /** The rule as a test: its false-alarm rate, what it detects, and tonight's outcome. */
  card(analysis: Analysis): EvaluatedGateRule;
  /** What it found, in one sentence for report.html's history part. */
  sentence(analysis: Analysis): string;
  /** Its trend chart beside the report; null when no night shown has its number. */
  chart?(trend: NightlyTrend<Analysis>): Chart | null;
}

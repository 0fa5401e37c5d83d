/**
 * A check's rule on the nights of the history (`output.history`, single-model runs), as
 * `Check.nightly.rule`: it reads the check's numbers of each night (`Check.nightly.fields`) and tests
 * their trend, e.g. dragon's ece-drift on the ECE of the last nights. The history part of
 * report.json keeps the rule's analysis under its key; the rule says what it found, what it is
 * as a test, and may draw the trend beside the report.
 */
import type { GateConfig } from '../config/schema.js';
import type { Chart } from '../render/svg.js';
import type { EvaluatedGateRule, GateFinding } from './findings.js';
import type { NightlyValues } from './nightly.js';

/** A night as a trend chart shows it: its date, whether the model was re-pulled, its numbers. */
export type TrendNight<Night extends object = NightlyValues> = Night & {
  date: string;
  rePulled: boolean;
};

/** What a rule's trend chart is drawn from: the nights shown and the rule's analysis. */
export interface NightlyTrend<Analysis, Night extends object = NightlyValues> {
  model: string;
  /** Oldest first, tonight last. */
  nights: readonly TrendNight<Night>[];
  analysis: Analysis;
}

/**
 * `Night` is the type of the check's numbers on a night (`Check.nightly`); the history part
 * of report.json keeps the rule's analysis under `key`.
 */
export interface NightlyRule<
  Analysis,
  Night extends object = NightlyValues,
  Config extends GateConfig = GateConfig,
> {
  /** Its field of the history part of report.json, e.g. "drift". */
  key: string;
  /** Whether a night has the number the rule reads: without tonight's, it finds nothing. */
  measured(night: Night): boolean;
  /** The rule on one model's nights, oldest first, tonight last (every night of the file). */
  analyse(nights: readonly Night[], config: Config): Analysis;
  /** Tonight's finding, a sentence with its numbers. */
  finding(analysis: Analysis): GateFinding;
  /** The rule as a test: its false-alarm rate, what it detects, and tonight's outcome. */
  card(analysis: Analysis): EvaluatedGateRule;
  /** What it found, in one sentence for report.html's history part. */
  sentence(analysis: Analysis): string;
  /** Its trend chart beside the report; null when no night shown has its number. */
  chart?(trend: NightlyTrend<Analysis, Night>): Chart | null;
}

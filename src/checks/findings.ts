/**
 * What a gate rule finds and what it is as a test: the findings of a run, the rule cards the
 * summary prints beside each rule. Apart from `Check` so that a part of a check declared in
 * its own file (a nightly rule) can name them.
 */
import type { CheckName } from '../config/schema.js';

/** How much a finding weighs, most severe first (report.json and the summary use this order). */
export const SEVERITIES = ['fail', 'warn', 'inconclusive', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One gate rule evaluated: a sentence a reader understands, and the numbers behind it. */
export interface GateFinding {
  check: CheckName;
  /** Stable rule id, e.g. "max-deteriorated", "domain-loss". */
  rule: string;
  severity: Severity;
  message: string;
  values?: Record<string, number | string | boolean | null>;
}

/**
 * A gate rule described as the statistical test it is: how often it trips on two identical
 * models, and the smallest change it detects at this run's settings. The summary prints both
 * beside the rule, so a reader knows what a pass does and does not rule out.
 */
export interface GateRuleCard {
  check: CheckName;
  /** The same id as the rule's findings. */
  rule: string;
  /** What the rule tests, in one short line. */
  tests: string;
  /** Chance, at most, that two identical models trip this rule in one run. */
  falseAlarmRate: number;
  /** How that rate is known, e.g. "design level" or "simulated: 0.9% [0.4, 1.9] in 2,000 runs". */
  falseAlarmBasis: string;
  /** The smallest effect detected with ≥ 80% power at this run's settings, in the reader's words. */
  detects: string;
}

export type RuleOutcome = 'pass' | Severity | 'not-evaluated';

/** A rule card with what the rule found on this run (its worst finding, or pass). */
export interface EvaluatedGateRule extends GateRuleCard {
  outcome: RuleOutcome;
}

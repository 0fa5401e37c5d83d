import type { CheckName, GateConfig } from '../config/schema.js';
import type { SampleRecord } from '../sampleLog/index.js';
import type { PlanGrowth, WorkUnit } from '../runner/types.js';

export interface ModelPair {
  baseline: string;
  /** Null in nightly (single-model) mode. */
  candidate: string | null;
}

/** What every stage of a check may read: the validated config and where its files are. */
export interface CheckContext {
  config: GateConfig;
  /** Folder that relative paths in the config resolve against. */
  baseDir: string;
  models: ModelPair;
}

/**
 * A check's share of the run's false-alarm budget (`false-alarm-rate` ÷ selected checks): the
 * chance, at most, that two identical models fail any of its rules in one run. With the shares
 * summing to the budget, two identical models fail the whole gate in at most that share of runs
 * (Bonferroni: no assumption on how the checks' errors depend on each other).
 */
export function checkFalseAlarmBudget(config: GateConfig): number {
  return config.falseAlarmRate / config.checks.length;
}

export type Severity = 'fail' | 'warn' | 'inconclusive' | 'info';

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

/**
 * A check has the same shape for all three: definitions it loads, a plan of work units per
 * model, a pure analysis of records into its report section, and gate rules on that section.
 * `Section` is plain JSON: it is written into report.json and the summary renders from it.
 */
export interface Check<Definitions, Section> {
  name: CheckName;
  /** Reads items / catalogue / seeds. Throws InputError naming file and line. */
  load(ctx: CheckContext): Promise<Definitions>;
  /** The work for one model. */
  plan(definitions: Definitions, ctx: CheckContext, model: string): WorkUnit[];
  /** Work the answers add while the run goes (adaptive sampling); absent or null: none. */
  growth?(definitions: Definitions, ctx: CheckContext): PlanGrowth | null;
  /** Pure: records (any order, possibly from several shards) → report section. */
  analyse(records: readonly SampleRecord[], definitions: Definitions, ctx: CheckContext): Section;
  /** Gate rules on the section (and, in nightly mode, a previous report's section). */
  gate(section: Section, ctx: CheckContext, previous?: unknown): GateFinding[];
  /** Every gate rule of the check as a test, at the settings of this run and section. */
  rules?(section: Section, ctx: CheckContext): GateRuleCard[];
}

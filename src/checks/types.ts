import { z } from 'zod';
import type { CheckName, GateConfig } from '../config/schema.js';
import type { Chart } from '../render/svg.js';
import type { RecordFormat, SampleRecord } from '../sampleLog/index.js';
import type { PlanGrowth, WorkUnit } from './workUnit.js';
import type { CheckOutput, HeadlineFields, ReportHeadline } from './headline.js';
import type { NightlyFields } from './nightly.js';
import type { NightlyRule } from './nightlyRule.js';
import type { CheckOverride } from '../config/overrides.js';
import type { CheckStarter } from './starter.js';
import type { CheckCommand, CheckCommands } from './command.js';
import type { GateFinding, GateRuleCard } from './findings.js';

export {
  type EvaluatedGateRule,
  type GateFinding,
  type GateRuleCard,
  type RuleOutcome,
  SEVERITIES,
  type Severity,
} from './findings.js';

export interface ModelPair {
  baseline: string;
  /** Null in nightly (single-model) mode. */
  candidate: string | null;
}

/** What every stage of a check may read: the validated config and where its files are. */
export interface CheckContext<Config extends GateConfig = GateConfig> {
  config: Config;
  /** Folder that relative paths in the config resolve against. */
  baseDir: string;
  /** The config file read (absolute), null when none was: hints name the file to edit. */
  configFile?: string | null;
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

/** The verdict of a run, as report.json, the outputs and the nightly history spell it. */
export const VERDICT_STATUSES = ['pass', 'warn', 'fail', 'inconclusive'] as const;
export type VerdictStatus = (typeof VERDICT_STATUSES)[number];

/**
 * A check's section of report.json as a schema: open (fields of another version are kept),
 * its `check` tag validated, and whichever fields the check asks to validate; its type is the
 * section the check's analysis writes.
 */
export function sectionSchema<Section>(
  name: CheckName,
  validated: z.ZodRawShape = {},
): z.ZodType<Section> {
  return z.looseObject({ check: z.literal(name), ...validated }) as unknown as z.ZodType<Section>;
}

/** What the "at a glance" rows of a check may read besides its section. */
export interface GlanceContext<Config extends GateConfig = GateConfig, Headline = ReportHeadline> {
  config: Config;
  /** The check's own numbers of the headline. */
  headline: Headline;
  /** False in a single-model (nightly) run. */
  hasCandidate: boolean;
}

/**
 * A check's parts of summary.md and of the files beside report.json. Every function reads the
 * section alone (and the run's config), so a report read back from disk renders the same.
 */
export interface CheckReport<
  Section,
  Config extends GateConfig = GateConfig,
  Headline extends object = ReportHeadline,
> {
  /** The check's part of summary.md. */
  section(section: Section): string;
  /** SVG charts written beside report.json. */
  charts?(section: Section): Chart[];
  /** One inline mermaid chart near the top of the summary, or null when its data is lacking. */
  glanceChart?(section: Section, config: Config): string | null;
  /** Rows of the "at a glance" table: [label, value]. */
  glance?(section: Section, context: GlanceContext<Config, Headline>): string[][];
  /** Rows of the provenance table: the settings a reader needs to repeat the run. */
  settings?(config: Config): string[][];
}

/**
 * A check: the definitions it loads, a plan of work units per model, a pure analysis of
 * records into its report section, gate rules on that section, and its part of the report.
 * `Section` is plain JSON: it is written into report.json and the summary renders from it.
 * These twelve members every check has; what only some checks do is an optional group below
 * (`CheckGroups`), a small object a check has or has not, and the host code of a group loops
 * over the checks that have it. `Config` is the config as the check reads it: `GateConfig`
 * with its own settings block typed (the config is read with the block's schema).
 */
export interface Check<Definitions, Section, Config extends GateConfig = GateConfig>
  extends CheckGroups<Definitions, Section, Config> {
  name: CheckName;
  /** Its settings block of the config, read under its name. */
  settingsSchema: z.ZodObject;
  /**
   * True: runs only when `checks:` names it (left out of the default list), for a check that
   * judges what the others measure rather than a question of its own.
   */
  optIn?: boolean;
  /** What it asks of the runner beyond sending its requests (a check that times them). */
  runner?: {
    /**
     * Series per model: above 1, the runner alternates the two models in that many blocks (a
     * check comparing their timings must not see the server's drift as a difference).
     */
    blocks?: number;
    /** Each call record carries where its model sat (memory, GPU memory) during its series. */
    residency?: boolean;
  };
  /** What one work unit is, singular and plural ("game", "games"). */
  unit: readonly [string, string];
  /** Its section of report.json. Kept open: only the `check` tag is validated on read. */
  sectionSchema: z.ZodType<Section>;
  /** Reads items / catalogue / seeds. Throws InputError naming file and line. */
  load(ctx: CheckContext<Config>): Promise<Definitions>;
  /** `--limit N`: the definitions cut to the first N units of work (items, seeds, probes). */
  limit(definitions: Definitions, n: number): Definitions;
  /** The work for one model. */
  plan(definitions: Definitions, ctx: CheckContext<Config>, model: string): WorkUnit[];
  /** The analysis: a fold over the records that count, in log order, into its section. */
  fold: CheckFold<Definitions, Section, unknown, Config>;
  /** Gate rules on the section (and, in nightly mode, a previous report's section). */
  gate(section: Section, ctx: CheckContext<Config>, previous?: unknown): GateFinding[];
  /** Every gate rule of the check as a test, at the settings of this run and section. */
  rules(section: Section, ctx: CheckContext<Config>): GateRuleCard[];
  /** Largest share of timed-out requests before the check's measurement is not trusted. */
  maxTimeoutShare(config: Config): number;
  report: CheckReport<Section, Config, object>;
}

/** What only some checks do, one optional group each. */
export interface CheckGroups<Definitions, Section, Config extends GateConfig> {
  /** How its records are read from the sample log and which of them count. */
  log?: CheckLog;
  /** Work the answers add while the run goes (adaptive sampling). */
  adaptive?: CheckAdaptive<Definitions, Config>;
  /** What the run says about its inputs: loader warnings and prompt hashes. */
  provenance?: CheckProvenance<Definitions, Config>;
  /** Its numbers in report.json's `headline` and the action's outputs. */
  headline?: CheckHeadline;
  /** Its numbers on a line of the nightly history, its rule on them, its previous report. */
  nightly?: CheckNightly<Config>;
  /** Its part of report.html. */
  page?: CheckPageGroup<Definitions, Section, Config, unknown>;
  /** What it adds to the CLI and to `model-gate init`. */
  cli?: CheckCli;
}

/** A check's records in the sample log. */
export interface CheckLog {
  /**
   * Its records (schemas by kind, identity). Absent: its calls carry the shared
   * fields, its own kept unchecked.
   */
  format?: RecordFormat;
  /**
   * Why stale records differ when their prompt and options match this config's (e.g. the
   * maze differs); absent: "other settings".
   */
  staleReason?: string;
  /**
   * True: its fold reads the call records of every check, not only its own (the speed check
   * times the other checks' requests). Failed requests are still counted on its own only.
   */
  everyCheck?: boolean;
  /**
   * True for a record's model that is an instrument control run beside the configured models
   * (dragon's reference players), never a model a config names.
   */
  isControl?(model: string): boolean;
}

/** Adaptive sampling: units the answers add, and what `validate` says of the first stage. */
export interface CheckAdaptive<Definitions, Config extends GateConfig> {
  /** Null: this config does not sample adaptively. */
  growth(definitions: Definitions, ctx: CheckContext<Config>): PlanGrowth | null;
  /** Lines `validate` adds under the plan's counts (e.g. that they are a first stage only). */
  planNotes(config: Config, units: readonly WorkUnit[]): string[];
}

export interface CheckProvenance<Definitions, Config extends GateConfig> {
  /**
   * What the loader accepted but a user should fix (an unknown field in an items file): shown
   * by `validate`, at the start of a run and as warnings of the action.
   */
  warnings?(definitions: Definitions): readonly string[];
  /** SHA-256 of each prompt template the run used, by a name that says which. */
  promptHashes?(config: Config): Record<string, string>;
}

export interface CheckHeadline {
  /** Its fields of report.json's `headline`. */
  fields: HeadlineFields;
  /** Its outputs of the action (action.yml lists them, in the order of the checks). */
  outputs: readonly CheckOutput[];
}

export interface CheckNightly<Config extends GateConfig = GateConfig> {
  /** Its numbers on a line of the nightly history, and their columns of the history table. */
  fields: NightlyFields;
  /** Its rule on the trend of those numbers over the nights (dragon's ECE drift). */
  rule?: NightlyRule<unknown, object>;
  /** Its setting naming a previous report to compare with in nightly mode. */
  previousReport?: PreviousReportSetting<Config>;
}

export interface CheckPageGroup<
  Definitions,
  Section,
  Config extends GateConfig,
  Collected = readonly SampleRecord[],
> {
  /**
   * What the part reads of the check's records, folded as they arrive (src/checks/fold.ts):
   * bounded per item, game or assistant, or the records themselves for a check with few.
   */
  collect: CheckFold<Definitions, Collected, unknown, Config>;
  /**
   * The section's rows joined with what the definitions and records hold (an item's question
   * and answers, a game's moves, an assistant's answers). Pure, and bounded in size:
   * examples, not every answer.
   */
  data(input: CheckPageInput<Definitions, Section, Config, Collected>): CheckPage;
}

export interface CheckCli {
  /** What it measures, in a few words, for the CLI's help ("persona distinctiveness"). */
  measures?: string;
  /** Commands it adds to the CLI (`model-gate <group> <command>`). */
  commands?: CheckCommands;
  /** Its converters under `model-gate import`: another tool's files into its definitions. */
  imports?: readonly CheckCommand[];
  /** Its settings a user may give as flags of `run` and `validate` and as action inputs. */
  overrides?: readonly CheckOverride[];
  /** Its block of the config `model-gate init` writes, and the files the block points at. */
  starter?(): CheckStarter;
}

/**
 * A check's analysis as a fold (src/checks/fold.ts): the state starts from the definitions,
 * takes the records that count one at a time, and ends as the section. Records come in log
 * order, except those of units judged whole (a maze game's moves), which come once the log is
 * read: `position`, the record's place in the log, is its time for a check that times the run.
 */
export interface CheckFold<
  Definitions,
  Section,
  State = unknown,
  Config extends GateConfig = GateConfig,
> {
  start(definitions: Definitions, ctx: CheckContext<Config>): State;
  add(state: State, record: SampleRecord, position: number): void;
  finish(state: State): Section;
}

/**
 * A check whatever its definitions and section: the host only moves definitions from `load`
 * to `plan`/`fold` and sections from the fold to `gate` and the report, never looks inside.
 */
export type AnyCheck = Check<unknown, unknown>;

/** What a check's part of report.html is built from. */
export interface CheckPageInput<
  Definitions,
  Section,
  Config extends GateConfig = GateConfig,
  Collected = readonly SampleRecord[],
> {
  section: Section;
  /** What its `collect` fold made of the records that count: of this check only, or of every check for one whose `log.everyCheck` is set. */
  collected: Collected;
  definitions: Definitions;
  ctx: CheckContext<Config>;
}

/** A check's part of report.html's data: plain JSON that the page's script renders. */
export interface CheckPage {
  check: CheckName;
}

/**
 * A check's setting that names a previous report (nightly mode). The report is read once for
 * every check; the flag `--previous` overrides the setting.
 */
export interface PreviousReportSetting<Config extends GateConfig = GateConfig> {
  /** Where the setting is, as a user writes it (for messages), e.g. "dragon.gate.previous-report". */
  key: string;
  read(config: Config): string | undefined;
  /** The config with the setting pointing at `file` (the rules read which report is compared). */
  write(config: Config, file: string): Config;
}

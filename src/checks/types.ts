import type { CheckName, GateConfig } from '../config/schema.js';
import type { SampleRecord } from '../runner/records.js';
import type { WorkUnit } from '../runner/types.js';

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

export type Severity = 'fail' | 'warn' | 'inconclusive' | 'info';

/** One gate rule evaluated: a sentence a reader understands, and the numbers behind it. */
export interface GateFinding {
  check: CheckName;
  /** Stable rule id, e.g. "max-deteriorated", "domain-reversal". */
  rule: string;
  severity: Severity;
  message: string;
  values?: Record<string, number | string | boolean | null>;
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
  /** Pure: records (any order, possibly from several shards) → report section. */
  analyse(records: readonly SampleRecord[], definitions: Definitions, ctx: CheckContext): Section;
  /** Gate rules on the section (and, in nightly mode, a previous report's section). */
  gate(section: Section, ctx: CheckContext, previous?: unknown): GateFinding[];
}

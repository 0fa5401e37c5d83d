import type { ChurnSection } from '../checks/churn/section.js';
import type { DragonSection } from '../checks/dragon/section.js';
import type { PersonasSection } from '../checks/personas/section.js';
import type { EvaluatedGateRule, GateFinding } from '../checks/types.js';
import type { CheckName, GateConfig } from '../config/schema.js';
import type { HistorySection } from '../history/section.js';
import type { RunOperations } from '../operations/types.js';
import type { ModelMetadata, ServerInfo } from '../providers/types.js';

export const REPORT_SCHEMA = 'model-gate.report/1';

export type VerdictStatus = 'pass' | 'warn' | 'fail' | 'inconclusive';

export interface Verdict {
  status: VerdictStatus;
  /** Every rule that did not pass, most severe first; info findings last. */
  reasons: GateFinding[];
  /**
   * Fail/warn findings of a check whose own measurement was inconclusive: shown to the reader,
   * not counted in the status (see src/report/verdict.ts).
   */
  suppressed: GateFinding[];
  /** Every gate rule as a test: false-alarm rate, smallest effect detected, outcome. */
  rules: EvaluatedGateRule[];
}

/**
 * The few numbers a workflow reads from the action's outputs, one place for all checks.
 * Null when the check did not run or did not produce the number.
 */
export interface ReportHeadline {
  /** Churn: (reliably improved + reliably deteriorated) / items, by the gate's method. */
  churnRate: number | null;
  /** Churn: items reliably worse on the candidate, by the gate's method. */
  deteriorated: number | null;
  /** Churn: domains whose net reliable change opposes the aggregate Δ. */
  reversals: string[];
  /** Dragon: expected calibration error of each model. */
  eceBaseline: number | null;
  eceCandidate: number | null;
  /** Personas: attribution accuracy of the candidate (of the baseline in single-model mode). */
  personaAccuracy: number | null;
}

/** Per model, how its requests went (all checks together). */
export interface RequestTally {
  model: string;
  total: number;
  ok: number;
  invalid: number;
  timeout: number;
  error: number;
  /** Timeouts above the configured share: the measurement is not trusted. */
  perturbed: boolean;
  meanLatencyMs: number | null;
}

/** Per check and model: the planned units and what became of them (see src/job/coverage.ts). */
export interface CoverageRow {
  check: CheckName;
  model: string;
  role: 'baseline' | 'candidate';
  /** What a unit is, plural: "samples", "games", "answers". */
  unit: string;
  planned: number;
  /** The model answered (ok or invalid). */
  answered: number;
  /** A request failed (error or timeout). */
  failed: number;
  /** Not in the logs, or a game cut before its end. */
  missing: number;
}

/** How much of the plan the report covers. Anything short of complete is `inconclusive`. */
export interface Coverage {
  complete: boolean;
  /** The run was stopped (SIGINT, SIGTERM, Ctrl-C) before it finished. */
  interrupted: boolean;
  /** Members of a shard set the logs lack, e.g. ["2/3"]. */
  missingShards: string[];
  /** "i/n" when the report covers one shard's slice of the plan (a run with --shard), else null. */
  shard: string | null;
  rows: CoverageRow[];
  /** The sentence saying what is missing; null when complete. */
  missing: string | null;
}

export interface RunMetadata {
  provider: ServerInfo;
  models: { baseline: ModelMetadata | null; candidate: ModelMetadata | null };
  /** The validated config the run used, defaults filled in. */
  config: GateConfig;
  /** Sample logs the report was computed from (file names only). */
  logs: string[];
  /** Models loaded on the server before the run (warned about when another model held the GPU). */
  loadedBefore: string[] | null;
  requests: RequestTally[];
  warnings: string[];
  /** Shards merged into this report, e.g. ["1/3", "2/3", "3/3"]; empty for a whole run. */
  shards: string[];
  /** SHA-256 of each prompt template, by name (e.g. "churn", "dragon"). */
  promptHashes?: Record<string, string>;
  /** A run (not a re-analysis): server hygiene before each series, GPU telemetry during it. */
  operations?: RunOperations;
  /** What part of the plan was measured; absent in reports written before it existed. */
  coverage?: Coverage;
}

export interface Report {
  schema: typeof REPORT_SCHEMA;
  tool: { name: string; version: string };
  createdAt: string;
  run: RunMetadata;
  checks: {
    churn?: ChurnSection;
    dragon?: DragonSection;
    personas?: PersonasSection;
  };
  /** Numbers exposed as action outputs, taken from the check sections. */
  headline: ReportHeadline;
  verdict: Verdict;
  /** Nightly runs with `output.history`: the last nights and the drift rule. */
  history?: HistorySection;
}

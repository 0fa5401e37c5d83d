/**
 * The sample log: JSON Lines, one record per model-call outcome (plus one `kind: "game"`
 * record per finished maze game). Append-only; analysis reads nothing else.
 */
import type { CheckName } from '../config/schema.js';

export const SAMPLE_LOG_VERSION = 1;

export type SampleStatus = 'ok' | 'invalid' | 'timeout' | 'error';

/** Options as sent, in the server's own names. */
export interface RecordedOptions {
  temperature: number;
  seed: number;
  num_ctx: number;
  num_predict: number;
  think: boolean;
}

/** The options of a request in the sample log's (the server's) names. */
export function recordedOptions(
  options: import('../providers/types.js').ChatOptions,
): RecordedOptions {
  return {
    temperature: options.temperature,
    seed: options.seed,
    num_ctx: options.numCtx,
    num_predict: options.numPredict,
    think: options.think,
  };
}

/** True when two records' requests were sent with the same options (a resume may reuse them). */
export function sameRecordedOptions(a: RecordedOptions, b: RecordedOptions): boolean {
  return (
    a.temperature === b.temperature &&
    a.seed === b.seed &&
    a.num_ctx === b.num_ctx &&
    a.num_predict === b.num_predict &&
    a.think === b.think
  );
}

/** Fields every call record carries. Check-specific fields are added beside them. */
export interface CallRecordBase {
  v: typeof SAMPLE_LOG_VERSION;
  kind: 'call';
  check: CheckName;
  model: string;
  digest: string | null;
  /** Unit key: item id, persona/probe, or game seed + decision index (see each check). */
  key: string;
  sample: number;
  options: RecordedOptions;
  prompt_sha256: string;
  status: SampleStatus;
  /** Why the record is invalid / timeout / error, in words. */
  reason?: string;
  latency_ms: number;
  prompt_tokens?: number;
  completion_tokens?: number;
  /** 1 when the first try answered, 2 after one retry. */
  attempts: number;
  /** Raw model text, only when the check needs it or the user asked (keep-text). */
  text?: string;
}

export interface ChurnCallRecord extends CallRecordBase {
  check: 'churn';
  item: string;
  domain: string;
  /** `exact`: one evaluation that reads the letter probabilities (churn.estimator: logprobs). */
  mode: 'stochastic' | 'greedy' | 'exact';
  /** Letter chosen (exact mode: the most probable one), null when invalid/timeout. */
  answer: string | null;
  correct: boolean | null;
  /** Exact mode: where the letter probabilities were read. */
  estimator?: 'embedded-logits' | 'ollama-logprobs';
  /** Exact mode: the temperature the probabilities are for (churn.temperature). */
  estimate_temperature?: number;
  /** Exact mode: probability of each valid letter at that temperature (they sum to 1). */
  letters?: Record<string, number>;
  /** Exact mode: probability of the correct letter. */
  p_correct?: number;
}

export type DragonOutcome =
  | 'moved'
  | 'wall'
  | 'known_wall'
  | 'pass'
  | 'treasure'
  | 'wounded'
  | 'won'
  | 'killed';

export interface DragonCallRecord extends CallRecordBase {
  check: 'dragon';
  game: number;
  decision: number;
  turn: number;
  move: 'up' | 'down' | 'left' | 'right' | 'pass';
  /** Stated confidence; null when invalid/timeout (the decision then acts as pass). */
  confidence: number | null;
  outcome: DragonOutcome;
  /**
   * The awake dragon reached the player after the turn this decision ended (`outcome` keeps
   * what the step itself did, so a wall bump stays a wall bump for calibration).
   */
  caught?: 'wounded' | 'killed';
  /** Reference player name instead of a model, when the record comes from one. */
  player?: string;
}

export interface DragonGameRecord {
  v: typeof SAMPLE_LOG_VERSION;
  kind: 'game';
  check: 'dragon';
  model: string;
  digest: string | null;
  key: string;
  game: number;
  prompt_sha256: string;
  result: 'won' | 'lost' | 'capped';
  capped: boolean;
  turns: number;
  decisions: number;
  cells_visited: number;
  treasure_found: boolean;
  wounds: number;
  fingerprint: string;
  player?: string;
}

export interface PersonasCallRecord extends CallRecordBase {
  check: 'personas';
  persona: string;
  probe: number;
  /** Verbatim answer (the analysis needs it); empty when not ok. */
  text: string;
  /** Embedding of `text` (personas `vectors: embed`), computed when the answer was collected. */
  vector?: number[];
  /** Model that produced `vector`. */
  embed_model?: string;
}

export type CallRecord = ChurnCallRecord | DragonCallRecord | PersonasCallRecord;
export type SampleRecord = CallRecord | DragonGameRecord;

/**
 * Provenance of a run, written once per run (and per resumed run or shard) so that
 * `model-gate analyze` can rebuild the report's metadata from the logs alone.
 */
export interface RunInfoRecord {
  v: typeof SAMPLE_LOG_VERSION;
  kind: 'run';
  startedAt: string;
  toolVersion: string;
  provider: import('../providers/types.js').ServerInfo;
  models: import('../providers/types.js').ModelMetadata[];
  loadedBefore: string[] | null;
  /** "i/n" when this run executed one shard of the plan. */
  shard: string | null;
  /** `run --limit N`: a smoke run over the first N items, seeds and probes (absent otherwise). */
  limit?: number;
  warnings: string[];
}

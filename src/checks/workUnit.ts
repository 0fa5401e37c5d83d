/** The contract between a check's plan and the runner: one unit of work, the calls it makes, what they return. */
import type { CheckName } from '../config/schema.js';
import type { ChatRequest, ChatResponse } from '../providers/types.js';
import type { RecordedOptions, SampleRecord, SampleStatus } from '../sampleLog/index.js';

/** One model call as a check wants it. */
export interface CallSpec {
  request: ChatRequest;
  /** SHA-256 of the prompt (see each check for what is hashed); recorded and part of the resume key. */
  promptSha256: string;
}

/** What came back from one call after the runner's timeout and retry policy. */
export interface CallOutcome {
  /**
   * 'ok' means a response arrived; the check's scorer may still call it 'invalid'. 'invalid'
   * here: the answer was too long to keep (runner.max-reply-bytes).
   */
  status: SampleStatus;
  response: ChatResponse | null;
  /** Why it failed, in words (timeout after 30 s twice, 503 server busy, …). */
  reason?: string;
  attempts: number;
  latencyMs: number;
}

export interface UnitContext {
  /** Records of this unit already in the sample log (resume), in log order. */
  readonly prior: readonly SampleRecord[];
  /** Digest of the model being run (null when the server does not tell). */
  readonly digest: string | null;
  /**
   * Sends one request with the runner's timeout/retry policy. Never throws for a failed call
   * (the outcome says timeout or error); it does throw when the run is stopping (cancelled, or
   * the server stopped answering), and the runner then ends the unit without a record.
   */
  call(spec: CallSpec): Promise<CallOutcome>;
  /**
   * Embedding vectors through the same provider (personas `vectors: embed`). Optional: a
   * runner without it leaves the personas analysis on TF-IDF, which says so in its notes.
   */
  embed?(model: string, texts: readonly string[]): Promise<number[][]>;
  /** Appends a record to the sample log now (flushed before the promise resolves). */
  emit(record: SampleRecord): Promise<void>;
  readonly signal: AbortSignal;
}

/**
 * One independent piece of work. Units run concurrently; calls inside a unit run one at a
 * time (a maze game is a unit whose decisions depend on each other).
 */
export interface WorkUnit {
  check: CheckName;
  model: string;
  /**
   * Stable across runs and machines: resume, shards and caches rely on it. The unit's records
   * carry this key, or this key extended with "/…" (a game's decisions and its game record).
   */
  key: string;
  /** Model calls the unit is expected to make (progress; exact for single calls). */
  expectedCalls: number;
  /**
   * The prompt hash and options its calls are sent with, when every call of the unit shares
   * them: lets a mismatch say which of the two differs from what a log holds.
   */
  expected?: { promptSha256: string; options: RecordedOptions };
  /**
   * The calls the unit most likely makes, when `expectedCalls` is only an upper bound (a maze
   * game): the progress total starts from it and is corrected as each unit ends.
   */
  estimatedCalls?: number;
  /**
   * Units of one group run in the same slice of a split plan (`--shard`): adaptive sampling
   * decides an item's next stage from every sample of both models, so they go together.
   * Absent: the unit is split on its own.
   */
  readonly group?: string;
  /**
   * True when `prior` already holds everything this unit would produce. For a unit of one call
   * (`expectedCalls` 1, no `replaced`), the analysis asks this and `current` of each record on
   * its own, as the records arrive (src/pipeline/measure.ts): true for a list when true for one
   * of its records, and `current` a filter, record by record. The runner gives it
   * (and `execute`, as `ctx.prior`) the records `current` kept, less those with status error.
   */
  isComplete(prior: readonly SampleRecord[]): boolean;
  /**
   * Of the log's records for this unit, those the current config would have produced (same
   * prompt, options and maze). The others are stale, left by a run with other settings:
   * resume asks again instead of reusing them, and analysis leaves them out. Absent: all.
   */
  current?(records: readonly SampleRecord[]): SampleRecord[];
  /**
   * Of the records `current` rejects, those of today's settings that a later attempt of the
   * unit replaced (a maze game continued from a failed move): not stale, so not warned about,
   * but no outcome either. Absent: none.
   */
  replaced?(records: readonly SampleRecord[]): SampleRecord[];
  execute(ctx: UnitContext): Promise<void>;
}

/** Units that answers add to the plan (adaptive sampling's next stages). */
export interface PlanGrowth {
  /**
   * Told the final records of each unit the log already completes, then the records of each
   * unit this run executes, once the unit has ended; returns the units these answers add.
   */
  observe(records: readonly SampleRecord[]): readonly WorkUnit[];
  /**
   * The calls of every unit it may still add for the items of `units` (the plan's units of
   * this run: a shard's, say), at most: each item taken to its last stage. Absent: none.
   */
  mostCalls?(units: readonly WorkUnit[]): number;
}

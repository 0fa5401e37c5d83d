/**
 * The sample log's records: JSON Lines, one record per model-call outcome (plus the records of
 * other kinds a check writes, e.g. one per finished game, and one `kind: "run"` record of
 * provenance per run). This file holds what every record shares; each check declares its own
 * records (`RecordFormat`, handed in by the check registry through `registerRecordFormat`) and
 * their types. A call record carries the fields every check shares, its
 * check's own fields, and — when its status is ok — the fields an answer must have.
 */
import { z } from 'zod';
import type { ServerTimings } from '../providers/timings.js';
import type { ChatOptions, ChatResponse, ModelMetadata, ServerInfo } from '../providers/types.js';

export const SAMPLE_LOG_VERSION = 1;

export const SAMPLE_STATUSES = ['ok', 'invalid', 'timeout', 'error'] as const;
const sampleStatus = z.enum(SAMPLE_STATUSES);
export type SampleStatus = z.infer<typeof sampleStatus>;

/**
 * The numbers of a record are input like any other (a log may be edited or planted): each kind
 * says what it expects, and a value outside it is named with the field and what was found
 * ("field \"latency_ms\": expected a duration in milliseconds, 0 or more, got -9995"). zod's
 * numbers are finite: 1e999, which JSON.parse reads as Infinity, is refused too.
 */
function numberField(expected: string, check: (n: number) => boolean) {
  return z
    .number({ error: (issue) => `${expected}, got ${describeFound(issue.input)}` })
    .refine(check, { error: (issue) => `${expected}, got ${describeFound(issue.input)}` });
}

function describeFound(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A count (tokens, attempts, turns): a whole number, 0 or more. */
export const countField = () =>
  numberField('expected a whole number, 0 or more', (n) => Number.isSafeInteger(n) && n >= 0);
/** A duration in milliseconds: 0 or more. */
export const durationField = () =>
  numberField('expected a duration in milliseconds, 0 or more', (n) => n >= 0);
/** A probability or a stated confidence: between 0 and 1. */
export const shareField = () =>
  numberField('expected a number between 0 and 1', (n) => n >= 0 && n <= 1);
/** A whole number of either sign (a seed; -1 as Ollama's "no limit"). */
export const wholeField = () => numberField('expected a whole number', Number.isSafeInteger);
/** A number 0 or more (a temperature). */
export const nonNegativeField = () => numberField('expected a number, 0 or more', (n) => n >= 0);

/** Options as sent, in the server's own names. */
const recordedOptionsSchema = z.object({
  temperature: nonNegativeField(),
  seed: wholeField(),
  num_ctx: countField(),
  num_predict: wholeField(),
  think: z.boolean(),
});
export type RecordedOptions = z.infer<typeof recordedOptionsSchema>;

/** The `v` field of every record. */
export const recordVersion = z.literal(SAMPLE_LOG_VERSION);
const version = recordVersion;

/**
 * The fields every call record carries, whichever check wrote it: a check's call schema spreads
 * them and adds its own `check` literal and fields (see `RecordFormat`).
 */
export const callRecordFields = {
  v: version,
  kind: z.literal('call'),
  model: z.string(),
  digest: z.string().nullable(),
  /** Unit key: item id, persona/probe, or game seed + decision index (see each check). */
  key: z.string(),
  sample: countField(),
  options: recordedOptionsSchema,
  prompt_sha256: z.string(),
  status: sampleStatus,
  /** Why the record is invalid / timeout / error, in words. */
  reason: z.string().optional(),
  latency_ms: durationField(),
  prompt_tokens: countField().optional(),
  completion_tokens: countField().optional(),
  /** The server's own timings of the reply, durations in nanoseconds (docs/sample-log.md). */
  timings: z
    .object({
      eval_count: countField().optional(),
      eval_duration: countField().optional(),
      prompt_eval_count: countField().optional(),
      prompt_eval_duration: countField().optional(),
      load_duration: countField().optional(),
      total_duration: countField().optional(),
      first_token_duration: countField().optional(),
    })
    .optional(),
  /**
   * Where the model sat while its series ran, as the server's /api/ps said once per series:
   * bytes in memory and of those in GPU memory (written when a check times the requests).
   */
  residency: z.object({ size: countField(), size_vram: countField() }).optional(),
  /** 1 when the first try answered, 2 after one retry. */
  attempts: countField(),
  /** Raw model text, only when the check needs it or the user asked (keep-text). */
  text: z.string().optional(),
};

/**
 * Provenance of a run, written once per run (and per resumed run or shard) so that
 * `model-gate analyze` can rebuild the report's metadata from the logs alone. Only the fields
 * the analysis reads are checked; server and model descriptions are kept as written.
 */
export const runInfoSchema = z.object({
  v: version,
  kind: z.literal('run'),
  startedAt: z.string(),
  toolVersion: z.string(),
  provider: z.custom<ServerInfo>((v) => typeof v === 'object' && v !== null),
  models: z.array(
    z.custom<ModelMetadata>(
      (v) =>
        typeof v === 'object' && v !== null && typeof (v as { model?: unknown }).model === 'string',
    ),
  ),
  loadedBefore: z.array(z.string()).nullable(),
  /** "i/n" when this run executed one shard of the plan. */
  shard: z.string().nullable(),
  /** `run --limit N`: a smoke run over the first N items, seeds and probes (absent otherwise). */
  limit: z.number().int().positive().optional(),
  warnings: z.array(z.string()),
});
export type RunInfoRecord = z.infer<typeof runInfoSchema>;

const sharedCallSchema = z.looseObject({ ...callRecordFields, check: z.string() });
/**
 * A record of one model call, of any check: the fields every call shares. A check reads its
 * own fields through its own record type, after telling its records by `check`.
 */
export type CallRecord = z.infer<typeof sharedCallSchema>;
/** A record of another kind a check writes (one per finished game, say), its fields kept. */
export interface OtherRecord {
  v: number;
  kind: string;
  check: string;
  model: string;
  digest: string | null;
  key: string;
  [field: string]: unknown;
}

/** A call or other record of any check (never a run record). */
export type SampleRecord = CallRecord | OtherRecord;

/** True for a call record: narrows where `kind === 'call'` cannot (another kind is any string). */
export function isCall(record: SampleRecord): record is CallRecord {
  return record.kind === 'call';
}

export type LogLine = SampleRecord | RunInfoRecord;

/** True for a run's provenance record, the one kind of line that is not a check's record. */
export function isRunInfo(line: LogLine): line is RunInfoRecord {
  return line.kind === 'run';
}

/** The options of a request in the sample log's (the server's) names. */
export function recordedOptions(options: ChatOptions): RecordedOptions {
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

/**
 * The fields of a call record that come from the server's reply whatever the check: token
 * counts and timings, each absent when the server did not report it.
 */
export interface ReplyFields {
  prompt_tokens?: number;
  completion_tokens?: number;
  timings?: ServerTimings;
}

export function replyFields(response: ChatResponse | null | undefined): ReplyFields {
  return {
    ...(response?.promptTokens != null ? { prompt_tokens: response.promptTokens } : {}),
    ...(response?.completionTokens != null ? { completion_tokens: response.completionTokens } : {}),
    ...(response?.timings ? { timings: response.timings } : {}),
  };
}

/**
 * The sample log's records: JSON Lines, one record per model-call outcome (plus one
 * `kind: "game"` record per finished maze game and one `kind: "run"` record of provenance per
 * run). The zod schemas below are the only definition of the format; the TypeScript types
 * are inferred from them. A call record carries the fields every check shares, its check's own
 * fields, and — when its status is ok — the fields an answer must have.
 */
import { z } from 'zod';
import { checkNames, isCheckName } from '../config/schema.js';
import type { ChatOptions, ModelMetadata, ServerInfo } from '../providers/types.js';

export const SAMPLE_LOG_VERSION = 1;

export const SAMPLE_STATUSES = ['ok', 'invalid', 'timeout', 'error'] as const;
const sampleStatus = z.enum(SAMPLE_STATUSES);
export type SampleStatus = z.infer<typeof sampleStatus>;

/** Options as sent, in the server's own names. */
const recordedOptionsSchema = z.object({
  temperature: z.number(),
  seed: z.number(),
  num_ctx: z.number(),
  num_predict: z.number(),
  think: z.boolean(),
});
export type RecordedOptions = z.infer<typeof recordedOptionsSchema>;

const version = z.literal(SAMPLE_LOG_VERSION);

const callBase = {
  v: version,
  kind: z.literal('call'),
  model: z.string(),
  digest: z.string().nullable(),
  /** Unit key: item id, persona/probe, or game seed + decision index (see each check). */
  key: z.string(),
  sample: z.number().int(),
  options: recordedOptionsSchema,
  prompt_sha256: z.string(),
  status: sampleStatus,
  /** Why the record is invalid / timeout / error, in words. */
  reason: z.string().optional(),
  latency_ms: z.number(),
  prompt_tokens: z.number().optional(),
  completion_tokens: z.number().optional(),
  /** 1 when the first try answered, 2 after one retry. */
  attempts: z.number(),
  /** Raw model text, only when the check needs it or the user asked (keep-text). */
  text: z.string().optional(),
};

const churnCallSchema = z.object({
  ...callBase,
  check: z.literal('churn'),
  item: z.string(),
  domain: z.string(),
  /** `exact`: one evaluation that reads the letter probabilities (churn.estimator: logprobs). */
  mode: z.enum(['stochastic', 'greedy', 'exact']),
  /** Letter chosen (exact mode: the most probable one), null when invalid/timeout. */
  answer: z.string().nullable(),
  correct: z.boolean().nullable(),
  /** Exact mode: where the letter probabilities were read. */
  estimator: z.enum(['embedded-logits', 'ollama-logprobs']).optional(),
  /** Exact mode: the temperature the probabilities are for (churn.temperature). */
  estimate_temperature: z.number().optional(),
  /** Exact mode: probability of each valid letter at that temperature (they sum to 1). */
  letters: z.record(z.string(), z.number()).optional(),
  /** Exact mode: probability of the correct letter. */
  p_correct: z.number().optional(),
  /** Open item: fingerprint of the grader that decided `correct` when the answer came. */
  grader: z.string().optional(),
  /** Open item, label grader: the answer was none of the labels (a wrong answer). */
  off_label: z.boolean().optional(),
  /** Open item: `text` holds the first 8 kB of a longer answer. */
  text_truncated: z.boolean().optional(),
  /** Open item with `text_truncated`: the whole answer's size in UTF-8 bytes. */
  text_bytes: z.number().int().nonnegative().optional(),
});
export type ChurnCallRecord = z.infer<typeof churnCallSchema>;

const dragonOutcome = z.enum([
  'moved',
  'wall',
  'known_wall',
  'pass',
  'treasure',
  'wounded',
  'won',
  'killed',
]);
export type DragonOutcome = z.infer<typeof dragonOutcome>;

const dragonCallSchema = z.object({
  ...callBase,
  check: z.literal('dragon'),
  game: z.number().int(),
  decision: z.number().int().nonnegative(),
  turn: z.number().int(),
  move: z.enum(['up', 'down', 'left', 'right', 'pass']),
  /** Stated confidence; null when invalid/timeout (the decision then acts as pass). */
  confidence: z.number().nullable(),
  outcome: dragonOutcome,
  /**
   * The awake dragon reached the player after the turn this decision ended (`outcome` keeps
   * what the step itself did, so a wall bump stays a wall bump for calibration).
   */
  caught: z.enum(['wounded', 'killed']).optional(),
  /** Reference player name instead of a model, when the record comes from one. */
  player: z.string().optional(),
});
export type DragonCallRecord = z.infer<typeof dragonCallSchema>;

const dragonGameSchema = z.object({
  v: version,
  kind: z.literal('game'),
  check: z.literal('dragon'),
  model: z.string(),
  digest: z.string().nullable(),
  key: z.string(),
  game: z.number().int(),
  prompt_sha256: z.string(),
  /** `invalid`: stopped after `dragon.max-consecutive-invalid` invalid answers in a row. */
  result: z.enum(['won', 'lost', 'capped', 'invalid']),
  capped: z.boolean(),
  turns: z.number(),
  decisions: z.number().int(),
  cells_visited: z.number(),
  treasure_found: z.boolean(),
  wounds: z.number(),
  fingerprint: z.string(),
  player: z.string().optional(),
});
export type DragonGameRecord = z.infer<typeof dragonGameSchema>;

const personasCallSchema = z.object({
  ...callBase,
  check: z.literal('personas'),
  persona: z.string(),
  probe: z.number().int(),
  /** Verbatim answer (the analysis needs it); empty when not ok. */
  text: z.string(),
  /** Embedding of `text` (personas `vectors: embed`), computed when the answer was collected. */
  vector: z.array(z.number()).optional(),
  /** Model that produced `vector`. */
  embed_model: z.string().optional(),
});
export type PersonasCallRecord = z.infer<typeof personasCallSchema>;

export type CallRecord = ChurnCallRecord | DragonCallRecord | PersonasCallRecord;
export type SampleRecord = CallRecord | DragonGameRecord;

/**
 * Provenance of a run, written once per run (and per resumed run or shard) so that
 * `model-gate analyze` can rebuild the report's metadata from the logs alone. Only the fields
 * the analysis reads are checked; server and model descriptions are kept as written.
 */
const runInfoSchema = z.object({
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

export type LogLine = SampleRecord | RunInfoRecord;

/** The fields an ok answer must carry, per check: without them it measured nothing. */
const okAnswerSchemas = {
  churn: z.object({ answer: z.string(), correct: z.boolean() }),
  dragon: z.object({ confidence: z.number() }),
  personas: z.object({ text: z.string() }),
} as const;

const callSchemas = {
  churn: churnCallSchema,
  dragon: dragonCallSchema,
  personas: personasCallSchema,
} as const;

/** A call of a check added at run time: the shared fields; its own are its check's to read. */
const addedCheckCallSchema = z.looseObject({ ...callBase, check: z.string() });

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

/** The first problem zod found, as `field "a.b": message`. */
function describeIssue(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0];
  if (!issue) return 'not a record of this format';
  const field = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
  return field ? `field "${field}": ${issue.message}` : issue.message;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads one parsed line: the record, or what is wrong with it in words. The record returned
 * is the value as written (fields this version does not know are kept, not stripped).
 */
export function readRecord(value: unknown): { record: LogLine } | { problem: string } {
  if (!isObject(value)) return { problem: 'expected a JSON object' };
  if (value.v !== SAMPLE_LOG_VERSION) {
    return {
      problem: `sample log schema version ${JSON.stringify(value.v)}, this version of model-gate reads version ${SAMPLE_LOG_VERSION}`,
    };
  }
  const kind = value.kind;
  if (kind === 'run') {
    const run = runInfoSchema.safeParse(value);
    return run.success ? { record: value as RunInfoRecord } : { problem: describeIssue(run.error) };
  }
  if (kind !== 'call' && kind !== 'game') {
    return {
      problem: `field "kind": expected "call", "game" or "run", got ${JSON.stringify(kind)}`,
    };
  }
  const check = value.check;
  if (!(typeof check === 'string' && (check in callSchemas || isCheckName(check)))) {
    const known = new Set([...Object.keys(callSchemas), ...checkNames()]);
    return {
      problem: `field "check": expected one of ${[...known].join(', ')}, got ${JSON.stringify(check)}`,
    };
  }
  if (!(check in callSchemas)) {
    if (kind === 'game') return { problem: `field "kind": a ${check} record is never "game"` };
    const added = addedCheckCallSchema.safeParse(value);
    return added.success
      ? { record: value as CallRecord }
      : { problem: describeIssue(added.error) };
  }
  const name = check as keyof typeof callSchemas;
  if (kind === 'game') {
    if (name !== 'dragon') return { problem: `field "kind": a ${name} record is never "game"` };
    const game = dragonGameSchema.safeParse(value);
    return game.success
      ? { record: value as DragonGameRecord }
      : { problem: describeIssue(game.error) };
  }
  const call = callSchemas[name].safeParse(value);
  if (!call.success) return { problem: describeIssue(call.error) };
  if (value.status === 'ok') {
    const answer = okAnswerSchemas[name].safeParse(value);
    if (!answer.success) {
      return {
        problem: `a ${name} record with status "ok" must carry its answer: ${describeIssue(answer.error)}`,
      };
    }
  }
  return { record: value as CallRecord };
}

/**
 * What a server says about how long it took: Ollama's closing record (`eval_count`,
 * `eval_duration`, `prompt_eval_count`, `prompt_eval_duration`, `load_duration`,
 * `total_duration`, durations in nanoseconds), llama.cpp's `timings` object beside an
 * OpenAI-compatible reply (milliseconds, turned into nanoseconds here), and the time to the
 * first streamed token as the client saw it. Each value is kept in the sample log so that
 * decode and prompt rates can be compared later without sending a request again.
 *
 * Every number comes from an unaudited server: a value is kept only when it is a whole number,
 * 0 or more, that a double holds exactly; a field that fails is left out (never guessed), and a
 * reply with no usable field has no timings at all.
 */
import { countOrNull } from './counts.js';

/** Server timings of one reply, in the server's names; durations in nanoseconds. */
export interface ServerTimings {
  eval_count?: number;
  eval_duration?: number;
  prompt_eval_count?: number;
  prompt_eval_duration?: number;
  load_duration?: number;
  total_duration?: number;
  /** Time from sending the request to the first streamed token (client side). */
  first_token_duration?: number;
}

export const TIMING_FIELDS = [
  'eval_count',
  'eval_duration',
  'prompt_eval_count',
  'prompt_eval_duration',
  'load_duration',
  'total_duration',
  'first_token_duration',
] as const satisfies readonly (keyof ServerTimings)[];

const OLLAMA_FIELDS = TIMING_FIELDS.filter((f) => f !== 'first_token_duration');

function kept(values: Partial<Record<keyof ServerTimings, unknown>>): ServerTimings | null {
  const timings: ServerTimings = {};
  for (const field of TIMING_FIELDS) {
    const value = countOrNull(values[field]);
    if (value !== null) timings[field] = value;
  }
  return Object.keys(timings).length > 0 ? timings : null;
}

/** Milliseconds as whole nanoseconds; null for anything but a finite number, 0 or more. */
function msToNs(value: unknown): number | null {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return null;
  return Math.round(value * 1e6);
}

/** From Ollama's closing record, and the first token's arrival when the reply streamed. */
export function ollamaTimings(
  closing: Record<string, unknown>,
  firstTokenMs: number | null,
): ServerTimings | null {
  const values: Partial<Record<keyof ServerTimings, unknown>> = {};
  for (const field of OLLAMA_FIELDS) values[field] = closing[field];
  values.first_token_duration = firstTokenMs === null ? null : msToNs(firstTokenMs);
  return kept(values);
}

/**
 * From an OpenAI-compatible reply: llama.cpp's server adds `timings` (`prompt_n`, `prompt_ms`,
 * `predicted_n`, `predicted_ms`); without it only the usage counts are known.
 */
export function openAiTimings(reply: object): ServerTimings | null {
  const timings = (reply as { timings?: unknown }).timings;
  const usage = (reply as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } })
    .usage;
  const t =
    typeof timings === 'object' && timings !== null ? (timings as Record<string, unknown>) : {};
  return kept({
    eval_count: t.predicted_n ?? usage?.completion_tokens,
    eval_duration: msToNs(t.predicted_ms),
    prompt_eval_count: t.prompt_n ?? usage?.prompt_tokens,
    prompt_eval_duration: msToNs(t.prompt_ms),
  });
}

/** The `timings` field of a response, absent when there are none. */
export function withTimings(timings: ServerTimings | null): { timings?: ServerTimings } {
  return timings ? { timings } : {};
}

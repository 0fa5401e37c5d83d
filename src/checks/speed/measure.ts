/**
 * One answer's speed figures from its record: the server's timings (nanoseconds), the token
 * counts and the wall time. The timings come from an unaudited server and may have been
 * edited in the log: a record whose numbers cannot all be true (a rate above ten million
 * tokens a second, a duration over a day, a part longer than the whole) is left out and
 * counted, never half used.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import { isCall } from '../../sampleLog/schema.js';

const DAY_NS = 86_400e9;
const MAX_TOKENS = 10_000_000;
/** 100 ns per token: ten million tokens a second, far above any server's prompt rate. */
const MIN_NS_PER_TOKEN = 100;

export interface AnswerFigures {
  /** Decode time per output token, ns; null when not reported. */
  decodeNs: number | null;
  /** Prompt processing time per prompt token, ns; null when not reported (or cached). */
  promptNs: number | null;
  firstTokenMs: number | null;
  outputTokens: number | null;
  wallMs: number;
}

export type Measured =
  | { kind: 'timed'; figures: AnswerFigures }
  | { kind: 'untimed'; outputTokens: number | null }
  | { kind: 'excluded' }
  | { kind: 'skipped' };

/** Time per token, null when either count is missing or zero, NaN when impossible. */
function perToken(count: number | undefined, duration: number | undefined): number | null {
  if (count === undefined || duration === undefined || count === 0) return null;
  const ns = duration / count;
  return ns >= MIN_NS_PER_TOKEN ? ns : Number.NaN;
}

export function measure(record: SampleRecord): Measured {
  if (!isCall(record) || record.status !== 'ok') return { kind: 'skipped' };
  const t = record.timings;
  const counted = record.completion_tokens ?? null;
  if (!t) return { kind: 'untimed', outputTokens: counted };
  const durations = [
    t.eval_duration,
    t.prompt_eval_duration,
    t.load_duration,
    t.total_duration,
    t.first_token_duration,
  ];
  const counts = [t.eval_count, t.prompt_eval_count];
  const sane = (v: number | undefined, max: number) =>
    v === undefined || (Number.isFinite(v) && v >= 0 && v <= max);
  if (!durations.every((d) => sane(d, DAY_NS)) || !counts.every((c) => sane(c, MAX_TOKENS))) {
    return { kind: 'excluded' };
  }
  const total = t.total_duration;
  if (
    total !== undefined &&
    total > 0 &&
    ((t.eval_duration ?? 0) > total || (t.prompt_eval_duration ?? 0) > total)
  ) {
    return { kind: 'excluded' };
  }
  const decodeNs = perToken(t.eval_count, t.eval_duration);
  const promptNs = perToken(t.prompt_eval_count, t.prompt_eval_duration);
  if (Number.isNaN(decodeNs) || Number.isNaN(promptNs)) return { kind: 'excluded' };
  // Tokens counted without a duration (an OpenAI-compatible server's usage) time nothing.
  if (decodeNs === null && promptNs === null && t.first_token_duration === undefined) {
    return { kind: 'untimed', outputTokens: t.eval_count ?? counted };
  }
  return {
    kind: 'timed',
    figures: {
      decodeNs,
      promptNs,
      firstTokenMs: t.first_token_duration === undefined ? null : t.first_token_duration / 1e6,
      outputTokens: t.eval_count ?? counted,
      wallMs: record.latency_ms,
    },
  };
}

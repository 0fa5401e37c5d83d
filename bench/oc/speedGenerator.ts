/**
 * Sample-log records of two models whose speed is known: per request, decode and prompt time
 * per token drawn lognormal around each model's rate, answer lengths around each item's, and
 * a server that slows down steadily over the run. The records are in the runner's order:
 * blocks of items, the two models' blocks alternating.
 */
import { SAMPLE_LOG_VERSION, type SampleRecord } from '../../src/sampleLog/index.js';
import type { Rng } from '../../src/stats/prng.js';
import type { SpeedCallRecord } from '../../src/checks/speed/records.js';

export interface SpeedTruth {
  items: number;
  samples: number;
  /** Lognormal σ of each request's time per token. */
  sigma: number;
  /** Candidate ÷ baseline decode time per token (1.5: 50% slower). */
  decodeRatio?: number;
  promptRatio?: number;
  /** Candidate ÷ baseline output tokens per answer. */
  lengthRatio?: number;
  /** Time per token at the run's last request ÷ at its first (1.3: 30% slower by the end). */
  drift?: number;
  /**
   * The runner's order: each model's items in this many blocks, the models' blocks alternating
   * (1: every baseline request before the candidate's). Default 4, the speed check's.
   */
  blocks?: number;
}

export const SPEED_MODELS = { baseline: 'base:1b', candidate: 'cand:1b' } as const;

/** Baseline: 20 ms per output token (50 tokens/s), 0.5 ms per prompt token. */
const DECODE_NS = 20e6;
const PROMPT_NS = 0.5e6;

export function normal(rng: Rng): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

export function speedLog(truth: SpeedTruth, rng: Rng): SampleRecord[] {
  const lengths = Array.from({ length: truth.items }, () =>
    Math.max(4, Math.round(120 * Math.exp(0.4 * normal(rng)))),
  );
  const promptTokens = Array.from({ length: truth.items }, () => 30 + rng.int(60));
  const requests: { model: string; item: number; sample: number }[] = [];
  const series = (model: string) =>
    lengths.flatMap((_, item) =>
      Array.from({ length: truth.samples }, (_, sample) => ({ model, item, sample })),
    );
  const base = series(SPEED_MODELS.baseline);
  const cand = series(SPEED_MODELS.candidate);
  const blocks = truth.blocks ?? 4;
  const size = Math.ceil(truth.items / blocks) * truth.samples;
  for (let start = 0; start < base.length; start += size) {
    requests.push(...base.slice(start, start + size), ...cand.slice(start, start + size));
  }
  return requests.map(({ model, item, sample }, index): SampleRecord => {
    const isCandidate = model === SPEED_MODELS.candidate;
    const slowdown = 1 + ((truth.drift ?? 1) - 1) * (index / Math.max(1, requests.length - 1));
    const decode =
      DECODE_NS *
      (isCandidate ? (truth.decodeRatio ?? 1) : 1) *
      slowdown *
      Math.exp(truth.sigma * normal(rng));
    const prompt =
      PROMPT_NS *
      (isCandidate ? (truth.promptRatio ?? 1) : 1) *
      slowdown *
      Math.exp(truth.sigma * normal(rng));
    const length = (lengths[item] as number) * (isCandidate ? (truth.lengthRatio ?? 1) : 1);
    const tokens = Math.max(1, Math.round(length * Math.exp(0.1 * normal(rng))));
    const promptCount = promptTokens[item] as number;
    const evalDuration = Math.round(tokens * decode);
    const promptDuration = Math.round(promptCount * prompt);
    const record: SpeedCallRecord = {
      v: SAMPLE_LOG_VERSION,
      kind: 'call',
      check: 'speed',
      model,
      digest: null,
      key: `item-${item}`,
      sample,
      options: { temperature: 0.7, seed: sample, num_ctx: 4096, num_predict: 256, think: false },
      prompt_sha256: 'f'.repeat(64),
      status: 'ok',
      latency_ms: Math.round((evalDuration + promptDuration) / 1e6),
      attempts: 1,
      prompt: `item-${item}`,
      prompt_tokens: promptCount,
      completion_tokens: tokens,
      timings: {
        eval_count: tokens,
        eval_duration: evalDuration,
        prompt_eval_count: promptCount,
        prompt_eval_duration: promptDuration,
        total_duration: evalDuration + promptDuration,
      },
    };
    return record;
  });
}

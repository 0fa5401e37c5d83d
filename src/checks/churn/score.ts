/**
 * The scorer: one call outcome → one sample-log record. A response that arrived but cannot be
 * read as one of the item's letters is `invalid` (kept, excluded from p); a call that never
 * answered is `timeout` or `error`. Neither is ever counted as a wrong answer.
 */
import type { ChurnCallRecord, RecordedOptions } from '../../runner/records.js';
import { SAMPLE_LOG_VERSION } from '../../runner/records.js';
import type { CallOutcome, CallSpec } from '../../runner/types.js';
import { type ChurnItem, choiceLetters } from './items.js';

export interface ChurnSampleSlot {
  item: ChurnItem;
  model: string;
  key: string;
  mode: 'stochastic' | 'greedy';
  sample: number;
  spec: CallSpec;
}

export function recordedOptions(spec: CallSpec): RecordedOptions {
  const o = spec.request.options;
  return {
    temperature: o.temperature,
    seed: o.seed,
    num_ctx: o.numCtx,
    num_predict: o.numPredict,
    think: o.think,
  };
}

/** The letter in a response, or why there is none. */
export function readAnswer(
  content: string,
  doneReason: string | null,
  letters: readonly string[],
  numPredict: number,
): { answer: string } | { reason: string } {
  const trimmed = content.trim();
  if (trimmed === '') {
    if (doneReason === 'length') {
      return {
        reason: `empty answer: the token budget ran out (done_reason length, num_predict ${numPredict}); with thinking on, reasoning may have used it all`,
      };
    }
    return { reason: 'empty answer' };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    // Some servers wrap the object in a code fence or add a word around it.
    const inner = /\{[^{}]*\}/.exec(trimmed);
    try {
      parsed = inner ? JSON.parse(inner[0]) : undefined;
    } catch {
      parsed = undefined;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || !('answer' in parsed)) {
    const cut = doneReason === 'length' ? ' (cut off: done_reason length)' : '';
    return { reason: `not a JSON object with an "answer" field${cut}` };
  }
  const raw = (parsed as { answer: unknown }).answer;
  const letter = typeof raw === 'string' ? raw.trim().replace(/[.)]$/, '').toUpperCase() : '';
  if (!letters.includes(letter)) {
    return {
      reason: `answer ${JSON.stringify(raw)} is not one of ${letters[0]}–${letters[letters.length - 1]}`,
    };
  }
  return { answer: letter };
}

export function scoreChurnSample(
  slot: ChurnSampleSlot,
  outcome: CallOutcome,
  digest: string | null,
  keepText: boolean,
): ChurnCallRecord {
  const response = outcome.response;
  const record: ChurnCallRecord = {
    v: SAMPLE_LOG_VERSION,
    kind: 'call',
    check: 'churn',
    model: slot.model,
    digest,
    key: slot.key,
    sample: slot.sample,
    options: recordedOptions(slot.spec),
    prompt_sha256: slot.spec.promptSha256,
    status: outcome.status,
    latency_ms: Math.round(outcome.latencyMs),
    attempts: outcome.attempts,
    item: slot.item.id,
    domain: slot.item.domain,
    mode: slot.mode,
    answer: null,
    correct: null,
  };
  if (outcome.reason !== undefined) record.reason = outcome.reason;
  if (response?.promptTokens != null) record.prompt_tokens = response.promptTokens;
  if (response?.completionTokens != null) record.completion_tokens = response.completionTokens;
  if (outcome.status !== 'ok' || response === null) {
    if (outcome.status === 'ok') {
      record.status = 'error';
      record.reason = 'no response';
    }
    return record;
  }
  if (keepText) record.text = response.content;
  const read = readAnswer(
    response.content,
    response.doneReason,
    choiceLetters(slot.item),
    slot.spec.request.options.numPredict,
  );
  if ('reason' in read) {
    record.status = 'invalid';
    record.reason = read.reason;
    return record;
  }
  record.answer = read.answer;
  record.correct = read.answer === slot.item.answer;
  return record;
}

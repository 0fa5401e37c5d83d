/**
 * The scorers: one call outcome → one sample-log record. A response that arrived but cannot be
 * read as one of the item's letters is `invalid` (kept, excluded from p); a call that never
 * answered is `timeout` or `error`. Neither is ever counted as a wrong answer. The logprobs
 * estimator's scorer reads the letter probabilities instead of the answer.
 */
import { InputError } from '../../errors.js';
import type { ChatResponse } from '../../providers/types.js';
import { recordedOptions, replyFields } from '../../sampleLog/index.js';
import { SAMPLE_LOG_VERSION } from '../../sampleLog/index.js';
import type { CallOutcome, CallSpec } from '../workUnit.js';
import { type AnswerPosition, letterProbabilities } from './logprobs/letterProbabilities.js';
import { answerPositionFromOllama } from './logprobs/ollamaLogprobs.js';
import { type ChurnItem, choiceLetters } from './items.js';
import { fillOpenAnswer } from './openScore.js';
import type { ChurnCallRecord } from './records.js';

export interface ChurnSampleSlot {
  item: ChurnItem;
  model: string;
  key: string;
  mode: ChurnCallRecord['mode'];
  sample: number;
  spec: CallSpec;
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

/** The fields every churn record has, filled from the slot and the outcome. */
function baseRecord(
  slot: ChurnSampleSlot,
  outcome: CallOutcome,
  digest: string | null,
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
    options: recordedOptions(slot.spec.request.options),
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
  Object.assign(record, replyFields(response));
  if (outcome.status === 'ok' && response === null) {
    record.status = 'error';
    record.reason = 'no response';
  }
  return record;
}

export function scoreChurnSample(
  slot: ChurnSampleSlot,
  outcome: CallOutcome,
  digest: string | null,
  keepText: boolean,
): ChurnCallRecord {
  const record = baseRecord(slot, outcome, digest);
  const response = outcome.response;
  if (record.status !== 'ok' || response === null) return record;
  const item = slot.item;
  if (item.kind === 'open') {
    fillOpenAnswer(record, response.content, response.doneReason, item);
    return record;
  }
  if (keepText) record.text = response.content;
  const read = readAnswer(
    response.content,
    response.doneReason,
    choiceLetters(item),
    slot.spec.request.options.numPredict,
  );
  if ('reason' in read) {
    record.status = 'invalid';
    record.reason = read.reason;
    return record;
  }
  record.answer = read.answer;
  record.correct = read.answer === item.answer;
  return record;
}

/**
 * Where the response holds the next-token probabilities of the answer's first character:
 * the embedded provider's distribution, or the Ollama token logprobs (position null when the
 * reply has no `"answer": "` to read them at). Null when the response carries neither.
 */
function answerPositionOf(
  response: ChatResponse,
): { source: 'embedded-logits' | 'ollama-logprobs'; position: AnswerPosition | null } | null {
  if (response.answerDistribution) {
    return {
      source: 'embedded-logits',
      position: { lead: '', candidates: response.answerDistribution.candidates },
    };
  }
  if (response.logprobs) {
    return { source: 'ollama-logprobs', position: answerPositionFromOllama(response.logprobs) };
  }
  return null;
}

/**
 * The logprobs estimator's record: the probability of each letter at `temperature` and of the
 * correct one. The answer recorded is the most probable letter (the first in letter order on
 * a tie). A response without any probabilities means the provider cannot do this at all: the
 * run stops with an InputError rather than log a series of unusable records.
 */
export function scoreChurnLogprobs(
  slot: ChurnSampleSlot,
  outcome: CallOutcome,
  digest: string | null,
  keepText: boolean,
  temperature: number,
): ChurnCallRecord {
  const record = baseRecord(slot, outcome, digest);
  record.estimate_temperature = temperature;
  const response = outcome.response;
  if (record.status !== 'ok' || response === null) return record;
  const item = slot.item;
  if (item.kind === 'open') {
    throw new Error(`item ${item.id} is open: the logprobs estimator refuses open items`);
  }
  if (keepText) record.text = response.content;
  const reading = answerPositionOf(response);
  if (reading === null) {
    throw new InputError(
      `churn.estimator: logprobs: ${slot.model} answered without token probabilities`,
      [
        'Ollama returns them from server version 0.12.11 on: upgrade the server',
        'or set churn.estimator: sampled',
      ],
    );
  }
  record.estimator = reading.source;
  if (reading.position === null) {
    record.status = 'invalid';
    record.reason = 'the reply has no "answer" value to read the letter probabilities at';
    return record;
  }
  const letters = choiceLetters(item);
  const probabilities = letterProbabilities(reading.position, letters, temperature);
  if (probabilities === null) {
    record.status = 'invalid';
    record.reason =
      reading.source === 'ollama-logprobs'
        ? `none of the ${reading.position.candidates.length} alternatives returned at the answer position is one of ${letters[0]}–${letters[letters.length - 1]} (raise churn.top-logprobs)`
        : `no token at the answer position is one of ${letters[0]}–${letters[letters.length - 1]}`;
    return record;
  }
  let best = letters[0] as string;
  for (const letter of letters) {
    if ((probabilities[letter] as number) > (probabilities[best] as number)) best = letter;
  }
  record.letters = probabilities;
  record.p_correct = probabilities[item.answer] ?? 0;
  record.answer = best;
  record.correct = best === item.answer;
  return record;
}

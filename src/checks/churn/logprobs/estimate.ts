/**
 * One item of the logprobs churn estimator: one evaluation of the prompt gives the probability
 * of every letter, hence p(correct) at the configured temperature, with no sampling noise.
 */
import type { ChatRequest } from '../../../providers/types.js';
import { type AnswerPosition, letterProbabilities } from './letterProbabilities.js';

/** What can read the answer position of a request (the embedded provider). */
export interface AnswerPositionSource {
  answerDistribution(
    request: ChatRequest,
    signal?: AbortSignal,
  ): Promise<{ candidates: AnswerPosition['candidates']; promptTokens: number; latencyMs: number }>;
}

export interface LogprobsItemEstimate {
  /** Probability of each valid letter at the temperature; null when no letter was reachable. */
  letters: Record<string, number> | null;
  /** Probability of the correct letter; null when unmeasurable. */
  pCorrect: number | null;
  /** Which estimator produced it, for the record and the report. */
  method: 'embedded-logits' | 'ollama-logprobs';
  promptTokens: number;
  latencyMs: number;
}

export async function estimateItem(
  source: AnswerPositionSource,
  request: ChatRequest,
  letters: readonly string[],
  correct: string,
  signal?: AbortSignal,
): Promise<LogprobsItemEstimate> {
  const position = await source.answerDistribution(request, signal);
  const probabilities = letterProbabilities(
    { lead: '', candidates: position.candidates },
    letters,
    request.options.temperature,
  );
  return {
    letters: probabilities,
    pCorrect: probabilities ? (probabilities[correct] ?? 0) : null,
    method: 'embedded-logits',
    promptTokens: position.promptTokens,
    latencyMs: position.latencyMs,
  };
}

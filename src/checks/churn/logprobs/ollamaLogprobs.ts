/**
 * The answer position in an Ollama reply that carries token log-probabilities
 * (`logprobs: true, top_logprobs: N`, server ≥ 0.12.11): which returned token holds the first
 * character of the letter, and the alternatives the server listed for it. Pure: the reply's
 * `logprobs` array in, an AnswerPosition for letterProbabilities out.
 */
import type { AnswerPosition, TokenCandidate } from './letterProbabilities.js';

/** One generated token as Ollama returns it in `logprobs`. */
export interface OllamaTokenLogprob {
  token: string;
  logprob: number;
  top_logprobs?: readonly { token: string; logprob: number }[];
}

/** Where the letter starts: after the opening quote of the `answer` value. */
const ANSWER_START = /"answer"\s*:\s*"/;

/**
 * Null when the reply has no `"answer": "` or ends before the letter. The chosen token itself
 * is always a candidate, so a reply without `top_logprobs` still yields its own token.
 */
export function answerPositionFromOllama(
  logprobs: readonly OllamaTokenLogprob[],
): AnswerPosition | null {
  const text = logprobs.map((t) => t.token).join('');
  const match = ANSWER_START.exec(text);
  if (!match) return null;
  const letterStart = match.index + match[0].length;
  let start = 0;
  for (const entry of logprobs) {
    const end = start + entry.token.length;
    if (letterStart >= start && letterStart < end) {
      const candidates: TokenCandidate[] = (entry.top_logprobs ?? []).map((alt) => ({
        text: alt.token,
        logprob: alt.logprob,
      }));
      if (!candidates.some((c) => c.text === entry.token)) {
        candidates.push({ text: entry.token, logprob: entry.logprob });
      }
      return { lead: text.slice(start, letterStart), candidates };
    }
    start = end;
  }
  return null;
}

/**
 * Token log-probabilities of a simulated answer, as Ollama returns them when asked
 * (`logprobs: true`, `top_logprobs: N`; server 0.12.11 and later). The answer text is cut into
 * word, space and punctuation tokens, each certain (log-probability 0), except the token where
 * a behaviour places its choice: that one carries the behaviour's log-probability of every
 * alternative, the N most probable of them listed. What a test reads back is therefore the
 * behaviour's own distribution, known exactly.
 */
import type { TokenLogprob } from '../providers/types.js';
import type { ChoiceLogprobs } from './behaviour.js';

/** Servers before 0.12.11, the first release with logprobs, ignore the request, as real ones did. */
export function versionHasLogprobs(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!match) return true;
  const [major, minor, patch] = match.slice(1, 4).map(Number) as [number, number, number];
  if (major !== 0) return major > 0;
  return minor !== 12 ? minor > 12 : patch >= 11;
}

function pieces(text: string): string[] {
  return text.match(/\w+|\s+|[^\w\s]+/g) ?? [];
}

export function simulatedLogprobs(
  content: string,
  choice: ChoiceLogprobs | null,
  top: number,
): TokenLogprob[] {
  const certain = (token: string): TokenLogprob => ({
    token,
    logprob: 0,
    ...(top > 0 ? { top_logprobs: [{ token, logprob: 0 }] } : {}),
  });
  const rest = choice ? content.slice(choice.offset) : '';
  // The longest alternative the text holds at the offset is the token that was chosen.
  const chosen = choice
    ? Object.keys(choice.alternatives)
        .filter((text) => text !== '' && rest.startsWith(text))
        .sort((a, b) => b.length - a.length)[0]
    : undefined;
  if (!choice || chosen === undefined) return pieces(content).map(certain);
  const ranked = Object.entries(choice.alternatives)
    .sort(([, a], [, b]) => b - a)
    .slice(0, top)
    .map(([token, logprob]) => ({ token, logprob }));
  return [
    ...pieces(content.slice(0, choice.offset)).map(certain),
    {
      token: chosen,
      logprob: choice.alternatives[chosen] as number,
      ...(top > 0 ? { top_logprobs: ranked } : {}),
    },
    ...pieces(rest.slice(chosen.length)).map(certain),
  ];
}

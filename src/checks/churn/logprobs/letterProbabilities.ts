/**
 * Exact per-item probability of each answer letter, from the next-token probabilities at the
 * answer position (right after `{"answer": "`), instead of counting K sampled answers.
 *
 * A token "answers L" when its text is `lead + L` optionally followed by the closing quote and
 * more (`B`, `B"`, `B"}`), where `lead` is the part of the token before the answer position
 * (empty when the position starts a token; ` "` when a server's tokenizer glued the quote to
 * the letter). Several tokens can answer the same letter (a letter token and its byte token).
 *
 * With z_t the logit of token t and p_t = softmax(z)_t its probability at temperature 1, a
 * sampler at temperature T restricted to the valid answers draws token t with probability
 * exp(z_t / T) / Σ_valid exp(z_s / T) = p_t^(1/T) / Σ_valid p_s^(1/T). So
 *
 *   P_T(L) = Σ_{t answers L} p_t^(1/T) / Σ_{L' valid} Σ_{t answers L'} p_t^(1/T)
 *
 * computed in log space (log p_t / T, minus the largest, then exponentiated) so that small
 * probabilities and small temperatures do not underflow. T = 0 is greedy decoding: the letter
 * of the single most probable valid token gets 1 (an exact tie splits it equally).
 * It matches a sampler that applies no top-k / top-p / min-p cut (the embedded provider);
 * tokens missing from a truncated list (a server's top-N logprobs) count as probability 0.
 */

export interface TokenCandidate {
  text: string;
  /** Natural log of the probability at temperature 1. */
  logprob: number;
}

export interface AnswerPosition {
  /** Text a candidate token must start with before the letter. */
  lead: string;
  candidates: readonly TokenCandidate[];
}

/** The letter a candidate answers, or null when it answers none of `letters`. */
export function answeredLetter(
  text: string,
  lead: string,
  letters: readonly string[],
): string | null {
  if (!text.startsWith(lead)) return null;
  const rest = text.slice(lead.length);
  for (const letter of letters) {
    if (!rest.startsWith(letter)) continue;
    const after = rest.slice(letter.length);
    if (after === '' || after.startsWith('"')) return letter;
  }
  return null;
}

/**
 * Probability of each valid letter at `temperature`, renormalised over the valid letters.
 * Null when no candidate answers any valid letter (nothing to renormalise).
 */
export function letterProbabilities(
  position: AnswerPosition,
  letters: readonly string[],
  temperature: number,
): Record<string, number> | null {
  if (!(temperature >= 0) || !Number.isFinite(temperature)) {
    throw new RangeError(`temperature must be a finite number ≥ 0, got ${temperature}`);
  }
  const byLetter = new Map<string, number[]>();
  for (const candidate of position.candidates) {
    if (!Number.isFinite(candidate.logprob)) continue;
    const letter = answeredLetter(candidate.text, position.lead, letters);
    if (letter === null) continue;
    const list = byLetter.get(letter) ?? [];
    list.push(candidate.logprob);
    byLetter.set(letter, list);
  }
  if (byLetter.size === 0) return null;
  const result: Record<string, number> = Object.fromEntries(letters.map((l) => [l, 0]));
  if (temperature === 0) {
    const best = Math.max(...[...byLetter.values()].flat());
    const winners = [...byLetter.entries()].filter(([, lps]) => lps.includes(best));
    for (const [letter] of winners) result[letter] = 1 / winners.length;
    return result;
  }
  const scaled = [...byLetter.entries()].map(
    ([letter, lps]) => [letter, lps.map((lp) => lp / temperature)] as const,
  );
  const top = Math.max(...scaled.flatMap(([, values]) => values));
  let total = 0;
  for (const [letter, values] of scaled) {
    const weight = values.reduce((sum, v) => sum + Math.exp(v - top), 0);
    result[letter] = weight;
    total += weight;
  }
  for (const letter of letters) result[letter] = (result[letter] as number) / total;
  return result;
}

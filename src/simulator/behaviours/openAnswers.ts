/**
 * What a scripted model answers to an open item: the expected answer (in a form the item's
 * grader accepts: the label, a sentence holding the number, a JSON object with the expected
 * fields and the schema's shape…) with its latent probability; otherwise a plausible wrong
 * answer (the other label, a number off by more than the tolerance, a JSON object with one
 * field changed) or, with probability `malformed`, a malformed one (broken JSON, no number, no
 * label). Each grader says its own answers (its `simulate`); every answer is checked against
 * the item's own grader (but one that runs a repository module, which the simulator never
 * runs), so "correct" here is what the grader says.
 */
import type { OpenItem } from '../../checks/churn/openItems.js';
import { graders } from '../../graders/index.js';
import type { GraderSpec } from '../../graders/types.js';
import { createRng, type Rng, seedFromText } from '../../stats/prng.js';

export interface OpenDraw {
  model: string;
  seed: number;
  temperature: number;
}

export interface OpenRates {
  /** Chance of an empty answer (recorded as invalid). */
  invalid: number;
  /** Chance that a wrong answer is malformed rather than plausible. */
  malformed: number;
}

/** One answer to an open item; pure: the same draw always gives the same text. */
export function drawOpenAnswer(
  latent: number,
  item: OpenItem,
  draw: OpenDraw,
  rates: OpenRates,
): string {
  const rng = createRng(
    seedFromText(
      `${draw.model}\u0000${draw.seed}\u0000${draw.temperature}\u0000${item.system ?? ''}\u0000${item.prompt}`,
    ),
  );
  if (rng.next() < rates.invalid) return '';
  const correct = draw.temperature === 0 ? latent >= 0.5 : rng.next() < latent;
  if (correct) return correctAnswer(item, rng);
  return rng.next() < rates.malformed ? malformedAnswer(item.grader.spec) : wrongAnswer(item, rng);
}

/** An answer the grader accepts, in a form a model might give. */
export function correctAnswer(item: OpenItem, rng: Rng): string {
  return graders.simulate.right(item.grader.spec, item.expected, rng);
}

/** An answer in the wrong form: broken JSON, no number, no label. */
export function malformedAnswer(spec: GraderSpec): string {
  return graders.simulate.malformed(spec);
}

/** A plausible wrong answer, checked wrong by the grader; a malformed one when none is found. */
export function wrongAnswer(item: OpenItem, rng: Rng): string {
  const spec = item.grader.spec;
  const answer = graders.simulate.wrong(spec, rng);
  if (answer === null) return malformedAnswer(spec);
  if (!graders.runsCode(spec) && item.grader.grade(answer).correct) {
    return malformedAnswer(spec);
  }
  return answer;
}

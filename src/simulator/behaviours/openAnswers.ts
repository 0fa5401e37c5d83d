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
import { createRng, type Rng, seedFromText } from '../../stats/prng.js';

/**
 * One answer to an open item; pure: the same draw always gives the same text. `rates.invalid`
 * is the chance of an empty answer (recorded as invalid), `rates.malformed` the chance that a
 * wrong answer is malformed rather than plausible.
 */
export function drawOpenAnswer(
  latent: number,
  item: OpenItem,
  draw: { model: string; seed: number; temperature: number },
  rates: { invalid: number; malformed: number },
): string {
  const rng = createRng(
    seedFromText(
      `${draw.model}\u0000${draw.seed}\u0000${draw.temperature}\u0000${item.system ?? ''}\u0000${item.prompt}`,
    ),
  );
  if (rng.next() < rates.invalid) return '';
  const correct = draw.temperature === 0 ? latent >= 0.5 : rng.next() < latent;
  return openAnswerText(item, correct, rates.malformed, rng);
}

/** A right answer, or a wrong one: malformed with probability `malformed`, else plausible. */
export function openAnswerText(
  item: OpenItem,
  correct: boolean,
  malformed: number,
  rng: Rng,
): string {
  const spec = item.grader.spec;
  if (correct) return graders.simulate.right(spec, item.expected, rng);
  const wrong = rng.next() < malformed ? null : graders.simulate.wrong(spec, rng);
  // A wrong answer the grader accepts after all is replaced by a malformed one.
  if (wrong === null || (!graders.runsCode(spec) && item.grader.grade(wrong).correct)) {
    return graders.simulate.malformed(spec);
  }
  return wrong;
}

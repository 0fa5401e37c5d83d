/**
 * `not`: the answer is right when the grader in `of` (a name or a mapping, which may give its
 * own `expected`) refuses it, and wrong when it accepts it — promptfoo's `not-…` assertions.
 * The reading is that grader's, prefixed; an answer that is none of a label grader's labels
 * is still counted off-label (it says what the model answered, whatever the verdict).
 */
import { z } from 'zod';
import { createRng } from '../stats/prng.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface NotSpec extends GraderSpec {
  type: 'not';
  of: GraderSpec;
}

const OPTIONS = { of: z.unknown().nullish() };

export const not: GraderKind<NotSpec, typeof OPTIONS> = {
  type: 'not',
  options: OPTIONS,
  children: (spec) => [spec.of],
  build(options, expected, context) {
    const of = options.value('of');
    if (!options.ok) return null;
    if (of === undefined || of === null) {
      options.problem('needs `of`, the grader whose verdict is turned round');
      return null;
    }
    const inner = context.child(of, expected);
    return inner === null ? null : { type: 'not', of: inner };
  },
  grade(spec, answer, context) {
    const inner = context.child(spec.of, answer);
    return { ...inner, correct: !inner.correct, reading: `not: ${inner.reading}` };
  },
  describe: (spec, context) => `not ${context.describe(spec.of)}`,
  explain: (spec, context) => [
    'right when the grader below refuses the answer, wrong when it accepts it:',
    `${spec.of.type}: ${context.explain(spec.of).join('; ')}`,
  ],
  simulate: {
    right: (spec, _expected, rng, context) =>
      context.wrong(spec.of, rng) ?? context.malformed(spec.of),
    wrong: (spec, rng, context) => context.right(spec.of, undefined, rng),
    // A malformed answer would be right here: the inner grader's right answer is wrong.
    malformed: (spec, context) => context.right(spec.of, undefined, createRng(0)),
  },
};

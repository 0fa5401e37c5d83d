/** `exact`: the answer equals `expected` after trimming, case folding and a final full stop. */
import { z } from 'zod';
import { flag, type GraderOptions } from './options.js';
import { asText, normaliseAnswer, quoted } from './text.js';
import type { ExactSpec, Grade } from './types.js';

export const EXACT_OPTIONS = {
  expected: z.unknown().optional(),
  'keep-case': flag,
  'keep-punctuation': flag,
};

export function buildExact(
  options: GraderOptions<typeof EXACT_OPTIONS>,
  expected: unknown,
): ExactSpec | null {
  const keepCase = options.boolean('keep-case', false);
  const keepPunctuation = options.boolean('keep-punctuation', false);
  const text = asText(expected);
  if (expected === undefined || expected === null) {
    options.problem('needs `expected`, the answer to compare with');
  } else if (text === null) {
    options.problem(
      `expected must be a text, got ${Array.isArray(expected) ? 'a list' : 'a mapping'} (a JSON answer is graded by grader: json)`,
    );
  }
  if (!options.ok || text === null) return null;
  return { type: 'exact', expected: text, keepCase, keepPunctuation };
}

export function gradeExact(spec: ExactSpec, answer: string): Grade {
  const read = normaliseAnswer(answer, spec);
  return { correct: read === normaliseAnswer(spec.expected, spec), reading: quoted(read) };
}

export function describeExact(spec: ExactSpec): string {
  const kept = [spec.keepCase ? 'case' : '', spec.keepPunctuation ? 'full stop' : '']
    .filter(Boolean)
    .join(' and ');
  return kept === '' ? 'exact' : `exact (${kept} kept)`;
}

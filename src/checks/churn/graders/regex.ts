/** `regex`: the pattern (JavaScript syntax) is found somewhere in the answer. */
import { z } from 'zod';
import type { GraderOptions } from './options.js';
import { asText, quoted } from './text.js';
import type { Grade, RegexSpec } from './types.js';

/** `g` and `y` make a search depend on the previous one: refused, they add nothing here. */
const ALLOWED_FLAGS = /^[dimsuv]*$/;

export const REGEX_OPTIONS = {
  pattern: z.string().nullish(),
  flags: z
    .string()
    .nullish()
    .refine((flags) => flags === null || flags === undefined || ALLOWED_FLAGS.test(flags), {
      error: (issue) => `flags ${JSON.stringify(issue.input)}: expected some of d, i, m, s, u, v`,
    }),
  expected: z.unknown().optional(),
};

export function buildRegex(
  options: GraderOptions<typeof REGEX_OPTIONS>,
  expected: unknown,
): RegexSpec | null {
  const pattern = options.value('pattern');
  const flags = options.value('flags') ?? '';
  if (!options.ok) return null;
  if (typeof pattern !== 'string' || pattern === '') {
    options.problem('needs `pattern`, a regular expression (JavaScript syntax)');
    return null;
  }
  let compiled: RegExp;
  try {
    compiled = new RegExp(pattern, flags);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    options.problem(`pattern ${quoted(pattern)} is not a valid regular expression: ${reason}`);
    return null;
  }
  const example = expected === undefined || expected === null ? null : asText(expected);
  if (expected !== undefined && expected !== null && example === null) {
    options.problem('expected (an example answer) must be a text');
  } else if (example !== null && !compiled.test(example)) {
    options.problem(`expected ${quoted(example)} does not match the pattern ${quoted(pattern)}`);
  }
  return options.ok ? { type: 'regex', pattern, flags, example } : null;
}

const compiledOf = new WeakMap<RegexSpec, RegExp>();

export function gradeRegex(spec: RegexSpec, answer: string): Grade {
  let regex = compiledOf.get(spec);
  if (!regex) {
    regex = new RegExp(spec.pattern, spec.flags);
    compiledOf.set(spec, regex);
  }
  const match = regex.exec(answer);
  return match
    ? { correct: true, reading: `matched ${quoted(match[0])}` }
    : { correct: false, reading: 'no match' };
}

export function describeRegex(spec: RegexSpec): string {
  const shown = spec.pattern.length > 40 ? `${spec.pattern.slice(0, 39)}…` : spec.pattern;
  return `regex /${shown}/${spec.flags}`;
}

/**
 * `regex`: the pattern (JavaScript syntax) is found somewhere in the answer. It runs on a
 * linear-time engine (linearRegex.ts): no pattern can make grading one answer slow.
 */
import { z } from 'zod';
import { compileLinear, type LinearRegex } from './linearRegex.js';
import { asText, quoted } from './text.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface RegexSpec extends GraderSpec {
  type: 'regex';
  pattern: string;
  flags: string;
  /** An answer the pattern accepts, checked when the item is loaded (the simulator says it). */
  example: string | null;
}

/** `g` and `y` make a search depend on the previous one: refused, they add nothing here. */
const ALLOWED_FLAGS = /^[dimsuv]*$/;

const OPTIONS = {
  pattern: z.string().nullish(),
  flags: z
    .string()
    .nullish()
    .refine((flags) => flags === null || flags === undefined || ALLOWED_FLAGS.test(flags), {
      error: (issue) => `flags ${JSON.stringify(issue.input)}: expected some of d, i, m, s, u, v`,
    }),
};

const compiledOf = new WeakMap<RegexSpec, LinearRegex>();

export const regex: GraderKind<RegexSpec, typeof OPTIONS> = {
  type: 'regex',
  options: OPTIONS,
  build(options, expected) {
    const pattern = options.value('pattern');
    const flags = options.value('flags') ?? '';
    if (!options.ok) return null;
    if (typeof pattern !== 'string' || pattern === '') {
      options.problem('needs `pattern`, a regular expression (JavaScript syntax)');
      return null;
    }
    let compiled: LinearRegex;
    try {
      // JavaScript's parser first, for its words on a pattern that is not valid at all.
      new RegExp(pattern, flags);
      compiled = compileLinear(pattern, flags);
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
    if (!options.ok) return null;
    const spec: RegexSpec = { type: 'regex', pattern, flags, example };
    compiledOf.set(spec, compiled);
    return spec;
  },
  grade(spec, answer) {
    let compiled = compiledOf.get(spec);
    if (!compiled) {
      compiled = compileLinear(spec.pattern, spec.flags);
      compiledOf.set(spec, compiled);
    }
    const match = compiled.exec(answer);
    return match !== null
      ? { correct: true, reading: `matched ${quoted(match)}` }
      : { correct: false, reading: 'no match' };
  },
  describe(spec) {
    const shown = spec.pattern.length > 40 ? `${spec.pattern.slice(0, 39)}…` : spec.pattern;
    return `regex /${shown}/${spec.flags}`;
  },
  explain(spec) {
    return [
      `the answer contains a match of /${spec.pattern}/${spec.flags}`,
      spec.example === null ? '' : `an answer it accepts: ${JSON.stringify(spec.example)}`,
    ].filter(Boolean);
  },
  simulate: {
    right: (spec) => spec.example ?? 'No example answer was given for this pattern.',
    wrong: () => 'I do not know.',
  },
};

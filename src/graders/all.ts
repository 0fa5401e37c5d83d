/**
 * `all`: `of` lists graders (names or mappings, each may give its own `expected`), and every one
 * must accept the answer; the first that refuses it gives the reading.
 */
import { z } from 'zod';
import type { GraderKind, GraderSpec } from './types.js';

export interface AllSpec extends GraderSpec {
  type: 'all';
  of: GraderSpec[];
}

const OPTIONS = { of: z.array(z.unknown()).nullish() };

export const all: GraderKind<AllSpec, typeof OPTIONS> = {
  type: 'all',
  options: OPTIONS,
  children: (spec) => spec.of,
  build(options, expected, context) {
    if (context.within.includes('all')) {
      options.problem('an `all` inside another `all` (list its graders in one)');
      return null;
    }
    const of = options.value('of');
    if (!options.ok) return null;
    if (!of || of.length === 0) {
      options.problem('needs `of`, a list of graders that must all accept the answer');
      return null;
    }
    const specs = of.map((sub) => context.child(sub, expected));
    if (!options.ok || specs.some((s) => s === null)) return null;
    return { type: 'all', of: specs as GraderSpec[] };
  },
  grade(spec, answer, context) {
    let offLabel = false;
    for (const sub of spec.of) {
      const grade = context.child(sub, answer);
      offLabel ||= grade.offLabel === true;
      if (!grade.correct) return { ...grade, offLabel };
    }
    return { correct: true, reading: `all ${spec.of.length} passed` };
  },
  describe(spec) {
    return `all of ${spec.of.map((s) => s.type).join(', ')}`;
  },
  explain(spec, context) {
    return [
      `every one of these ${spec.of.length} graders must accept the answer:`,
      ...spec.of.map((sub, i) => `${i + 1}. ${sub.type}: ${context.explain(sub).join('; ')}`),
    ];
  },
  simulate: {
    right(spec, expected, rng, context) {
      if (typeof expected === 'string') return expected;
      return spec.of.map((sub) => context.right(sub, expected, rng)).join('\n');
    },
    wrong: (spec, rng, context) => context.wrong(spec.of[0] as GraderSpec, rng),
    malformed: (spec, context) => context.malformed(spec.of[0] as GraderSpec),
  },
};

/**
 * `contains`: every text of `expected` appears in the answer, and one of `any` when given;
 * case-insensitive unless `keep-case`.
 */
import { flag, texts } from './options.js';
import { quoted } from './text.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface ContainsSpec extends GraderSpec {
  type: 'contains';
  /** Every one must appear. */
  all: string[];
  /** At least one must appear (when not empty). */
  any: string[];
  keepCase: boolean;
}

const OPTIONS = {
  any: texts('any'),
  'keep-case': flag,
};

const list = (values: readonly string[]) => values.map((v) => JSON.stringify(v)).join(', ');

export const contains: GraderKind<ContainsSpec, typeof OPTIONS> = {
  type: 'contains',
  options: OPTIONS,
  build(options, expected) {
    const keepCase = options.boolean('keep-case', false);
    const any = options.texts('any') ?? [];
    let all: string[] = [];
    if (expected !== undefined && expected !== null) {
      const values = Array.isArray(expected) ? expected : [expected];
      const found = values.map((v) =>
        typeof v === 'string' || typeof v === 'number' ? String(v) : null,
      );
      if (found.some((t) => t === null || t === '')) {
        options.problem('expected must be a text or a list of non-empty texts');
      } else {
        all = found as string[];
      }
    }
    if (options.ok && all.length === 0 && any.length === 0) {
      options.problem('needs `expected` (texts that must all appear) or `any` (one must appear)');
    }
    return options.ok ? { type: 'contains', all, any, keepCase } : null;
  },
  grade(spec, answer) {
    const fold = (text: string) => (spec.keepCase ? text : text.toLowerCase()).normalize('NFC');
    const haystack = fold(answer);
    const missing = spec.all.find((needle) => !haystack.includes(fold(needle)));
    if (missing !== undefined) return { correct: false, reading: `without ${quoted(missing)}` };
    if (spec.any.length > 0) {
      const found = spec.any.find((needle) => haystack.includes(fold(needle)));
      if (found === undefined) return { correct: false, reading: 'none of the `any` texts' };
      return { correct: true, reading: `with ${quoted(found)}` };
    }
    return { correct: true, reading: `with all ${spec.all.length}` };
  },
  describe(spec) {
    const parts = [
      spec.all.length > 0 ? `all of ${spec.all.length}` : '',
      spec.any.length > 0 ? `one of ${spec.any.length}` : '',
      spec.keepCase ? 'case kept' : '',
    ].filter(Boolean);
    return `contains (${parts.join(', ')})`;
  },
  explain(spec) {
    return [
      spec.all.length > 0 ? `the answer contains every one of: ${list(spec.all)}` : '',
      spec.any.length > 0 ? `the answer contains at least one of: ${list(spec.any)}` : '',
      spec.keepCase ? 'case must match' : 'case ignored',
    ].filter(Boolean);
  },
  simulate: {
    right(spec, _expected, rng) {
      const parts = [...spec.all];
      if (spec.any.length > 0) parts.push(spec.any[rng.int(spec.any.length)] as string);
      return `Here is what I found: ${parts.join(', ')}.`;
    },
    wrong: () => 'I could not find anything relevant.',
  },
};

/**
 * `contains`: every text of `expected` appears in the answer, and one of `any` when given;
 * case-insensitive unless `keep-case`.
 */
import { z } from 'zod';
import { flag, type GraderOptions, texts } from './options.js';
import { quoted } from './text.js';
import type { ContainsSpec, Grade } from './types.js';

export const CONTAINS_OPTIONS = {
  expected: z.unknown().optional(),
  any: texts('any'),
  'keep-case': flag,
};

export function buildContains(
  options: GraderOptions<typeof CONTAINS_OPTIONS>,
  expected: unknown,
): ContainsSpec | null {
  const keepCase = options.boolean('keep-case', false);
  const any = options.texts('any') ?? [];
  let all: string[] = [];
  if (expected !== undefined && expected !== null) {
    const list = Array.isArray(expected) ? expected : [expected];
    const texts = list.map((v) =>
      typeof v === 'string' || typeof v === 'number' ? String(v) : null,
    );
    if (texts.some((t) => t === null || t === '')) {
      options.problem('expected must be a text or a list of non-empty texts');
    } else {
      all = texts as string[];
    }
  }
  if (options.ok && all.length === 0 && any.length === 0) {
    options.problem('needs `expected` (texts that must all appear) or `any` (one must appear)');
  }
  return options.ok ? { type: 'contains', all, any, keepCase } : null;
}

export function gradeContains(spec: ContainsSpec, answer: string): Grade {
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
}

export function describeContains(spec: ContainsSpec): string {
  const parts = [
    spec.all.length > 0 ? `all of ${spec.all.length}` : '',
    spec.any.length > 0 ? `one of ${spec.any.length}` : '',
    spec.keepCase ? 'case kept' : '',
  ].filter(Boolean);
  return `contains (${parts.join(', ')})`;
}

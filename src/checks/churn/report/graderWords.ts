/**
 * A grader's options in words, for report.html: what an answer must be to be graded right, one
 * line per option, values written as JSON (keys in the order the items file gives them) so a
 * text's ends and spaces show. The report's short name (`contains (one of 3)`) says which
 * grader; these lines say what it checks.
 */
import type { GraderSpec, LeafSpec } from '../graders/types.js';

const q = (text: string) => JSON.stringify(text);
const list = (texts: readonly string[]) => texts.map(q).join(', ');

function caseWords(keepCase: boolean): string {
  return keepCase ? 'case must match' : 'case ignored';
}

function leafWords(spec: LeafSpec): string[] {
  switch (spec.type) {
    case 'exact':
      return [
        `the answer equals ${q(spec.expected)} (trimmed, Unicode NFC)`,
        `${caseWords(spec.keepCase)}; ${spec.keepPunctuation ? 'a final full stop must match' : 'one final full stop ignored'}`,
      ];
    case 'contains':
      return [
        spec.all.length > 0 ? `the answer contains every one of: ${list(spec.all)}` : '',
        spec.any.length > 0 ? `the answer contains at least one of: ${list(spec.any)}` : '',
        caseWords(spec.keepCase),
      ].filter(Boolean);
    case 'regex':
      return [
        `the answer contains a match of /${spec.pattern}/${spec.flags}`,
        spec.example === null ? '' : `an answer it accepts: ${q(spec.example)}`,
      ].filter(Boolean);
    case 'number':
      return [`the first number in the answer is ${spec.expected}${withinWords(spec)}`];
    case 'json':
      return [
        spec.search
          ? 'the first JSON object or array found in the answer'
          : 'the whole answer is JSON (or one fenced code block holding it)',
        spec.schema ? `valid against the schema ${JSON.stringify(spec.schema)}` : '',
        spec.fields
          ? `with the fields ${Object.entries(spec.fields)
              .map(([key, value]) => `${q(key)}: ${JSON.stringify(value)}`)
              .join(', ')}`
          : '',
      ].filter(Boolean);
    case 'label':
      return [
        `the answer is the label ${q(spec.expected)}, of ${list(spec.labels)}`,
        'normalised: case, spaces, wrapping quotes or brackets and a final full stop ignored',
        'an answer none of the labels is wrong and counted off-label',
      ];
    case 'module':
      return [
        `the module ${q(spec.module)} of the repository says right or wrong`,
        `its file's SHA-256: ${spec.sha256.slice(0, 12)}…`,
        spec.expected === null ? '' : `expected passed to it: ${JSON.stringify(spec.expected)}`,
      ].filter(Boolean);
  }
}

function withinWords(spec: Extract<LeafSpec, { type: 'number' }>): string {
  const within = [
    spec.tolerance > 0 ? `± ${spec.tolerance}` : '',
    spec.relative > 0 ? `± ${spec.relative * 100}%` : '',
  ].filter(Boolean);
  return within.length === 0 ? ', exactly' : `, within ${within.join(' or ')}`;
}

/** One line per option; for `all`, each grader's lines under its type, every one required. */
export function graderWords(spec: GraderSpec): string[] {
  if (spec.type !== 'all') return leafWords(spec);
  return [
    `every one of these ${spec.of.length} graders must accept the answer:`,
    ...spec.of.map((sub, i) => `${i + 1}. ${sub.type}: ${leafWords(sub).join('; ')}`),
  ];
}

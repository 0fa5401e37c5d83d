/** `exact`: the answer equals `expected` after trimming, case folding and a final full stop. */
import { flag } from './options.js';
import { asText, capitalised, normaliseAnswer, quoted } from './text.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface ExactSpec extends GraderSpec {
  type: 'exact';
  expected: string;
  keepCase: boolean;
  keepPunctuation: boolean;
}

const OPTIONS = {
  'keep-case': flag,
  'keep-punctuation': flag,
};

/** What a scripted model answers wrong to a yes/no question. */
const OPPOSITES: Record<string, string> = { yes: 'no', no: 'yes', true: 'false', false: 'true' };

export const exact: GraderKind<ExactSpec, typeof OPTIONS> = {
  type: 'exact',
  options: OPTIONS,
  build(options, expected) {
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
  },
  grade(spec, answer) {
    const read = normaliseAnswer(answer, spec);
    return { correct: read === normaliseAnswer(spec.expected, spec), reading: quoted(read) };
  },
  describe(spec) {
    const kept = [spec.keepCase ? 'case' : '', spec.keepPunctuation ? 'full stop' : '']
      .filter(Boolean)
      .join(' and ');
    return kept === '' ? 'exact' : `exact (${kept} kept)`;
  },
  explain(spec) {
    return [
      `the answer equals ${JSON.stringify(spec.expected)} (trimmed, Unicode NFC)`,
      `${spec.keepCase ? 'case must match' : 'case ignored'}; ${spec.keepPunctuation ? 'a final full stop must match' : 'one final full stop ignored'}`,
    ];
  },
  simulate: {
    right(spec, _expected, rng) {
      const cased = spec.keepCase ? spec.expected : capitalised(spec.expected, rng);
      return !spec.keepPunctuation && rng.next() < 0.3 ? `${cased}.` : cased;
    },
    wrong(spec) {
      return OPPOSITES[spec.expected.trim().toLowerCase()] ?? `Not ${spec.expected}`;
    },
  },
};

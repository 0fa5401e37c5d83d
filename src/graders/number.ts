/**
 * `number`: the first number in the answer equals `expected`, within `tolerance` (absolute) or
 * `relative` (a share of |expected|), whichever is wider.
 *
 * Reading a number: an optional sign (`-`, `+` or the minus sign U+2212), digits with
 * thousands separators (`,`, a no-break, narrow no-break or thin space between groups of three),
 * a decimal point, an exponent. A number glued to a letter or a dot before it (`A4`, `v2`,
 * `COVID-19`'s 19 is read, its hyphen is not a sign) is skipped. A decimal comma is not read as
 * one: `3,5` reads 3.
 */
import { amount } from './options.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface NumberSpec extends GraderSpec {
  type: 'number';
  expected: number;
  /** Largest absolute difference accepted. */
  tolerance: number;
  /** Largest difference accepted as a share of |expected|. */
  relative: number;
}

const OPTIONS = {
  tolerance: amount('tolerance'),
  relative: amount('relative'),
};

const NUMBER =
  /(?<![\p{L}\p{N}_.])([-+\u2212]?)(?:(\d{1,3}(?:[,\u00a0\u202f\u2009]\d{3})+|\d+)(\.\d+)?|\.(\d+))(?:[eE]([-+]?\d+))?/u;

/** The first number in a text, or null. */
export function readNumber(text: string): number | null {
  const match = NUMBER.exec(text);
  if (!match) return null;
  const [, sign, whole, fraction, bareFraction, exponent] = match;
  const digits =
    whole !== undefined
      ? `${whole.replace(/[^\d]/g, '')}${fraction ?? ''}`
      : `0.${bareFraction ?? '0'}`;
  const value = Number(`${sign === '-' || sign === '\u2212' ? '-' : ''}${digits}e${exponent ?? 0}`);
  return Number.isFinite(value) ? value : null;
}

const allowed = (spec: NumberSpec) =>
  Math.max(spec.tolerance, spec.relative * Math.abs(spec.expected));

function within(spec: NumberSpec): string[] {
  return [
    spec.tolerance > 0 ? `± ${spec.tolerance}` : '',
    spec.relative > 0 ? `± ${spec.relative * 100}%` : '',
  ].filter(Boolean);
}

export const number: GraderKind<NumberSpec, typeof OPTIONS> = {
  type: 'number',
  options: OPTIONS,
  build(options, expected) {
    const tolerance = options.amount('tolerance', 0);
    const relative = options.amount('relative', 0);
    let value: number | null = null;
    if (typeof expected === 'number' && Number.isFinite(expected)) value = expected;
    else if (typeof expected === 'string') {
      value = readNumber(expected);
      if (value === null || expected.trim() !== NUMBER.exec(expected)?.[0]) {
        options.problem(`expected ${JSON.stringify(expected)} is not one number`);
        value = null;
      }
    } else {
      options.problem('needs `expected`, a number');
    }
    return options.ok && value !== null
      ? { type: 'number', expected: value, tolerance, relative }
      : null;
  },
  grade(spec, answer) {
    const read = readNumber(answer);
    if (read === null) return { correct: false, reading: 'no number' };
    return { correct: Math.abs(read - spec.expected) <= allowed(spec), reading: String(read) };
  },
  describe(spec) {
    const shown = within(spec);
    return shown.length === 0 ? 'number' : `number (${shown.join(' or ')})`;
  },
  explain(spec) {
    const shown = within(spec);
    const how = shown.length === 0 ? ', exactly' : `, within ${shown.join(' or ')}`;
    return [`the first number in the answer is ${spec.expected}${how}`];
  },
  simulate: {
    right(spec, _expected, rng) {
      const shown =
        rng.next() < 0.5
          ? spec.expected.toLocaleString('en-US', { maximumFractionDigits: 20 })
          : String(spec.expected);
      return `The answer is ${shown}.`;
    },
    wrong(spec, rng) {
      const off = 2 * allowed(spec) + Math.max(1, Math.abs(spec.expected) * 0.1);
      const wrong = spec.expected + (rng.next() < 0.5 ? off : -off);
      return `The answer is ${Number(wrong.toFixed(2))}.`;
    },
    malformed: () => 'I cannot work that out from what is given.',
  },
};

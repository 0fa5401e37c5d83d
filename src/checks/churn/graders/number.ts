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
import { z } from 'zod';
import { amount, type GraderOptions } from './options.js';
import type { Grade, NumberSpec } from './types.js';

export const NUMBER_OPTIONS = {
  expected: z.unknown().optional(),
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

export function buildNumber(
  options: GraderOptions<typeof NUMBER_OPTIONS>,
  expected: unknown,
): NumberSpec | null {
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
}

export function gradeNumber(spec: NumberSpec, answer: string): Grade {
  const read = readNumber(answer);
  if (read === null) return { correct: false, reading: 'no number' };
  const allowed = Math.max(spec.tolerance, spec.relative * Math.abs(spec.expected));
  return { correct: Math.abs(read - spec.expected) <= allowed, reading: String(read) };
}

export function describeNumber(spec: NumberSpec): string {
  const within = [
    spec.tolerance > 0 ? `± ${spec.tolerance}` : '',
    spec.relative > 0 ? `± ${spec.relative * 100}%` : '',
  ].filter(Boolean);
  return within.length === 0 ? 'number' : `number (${within.join(' or ')})`;
}

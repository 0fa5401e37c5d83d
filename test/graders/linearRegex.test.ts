/**
 * The linear-time engine reads patterns as JavaScript does: on patterns without backreferences
 * or lookahead, every answer below matches (and matches the same text) as with RegExp.
 */
import { describe, expect, it } from 'vitest';
import { compileLinear } from '../../src/graders/linearRegex.js';

const ANSWERS = [
  '',
  'The total is 1\u00a0250 EUR.',
  'line one\r\nline two',
  'a\u2028b',
  'Order ORD-4471 shipped',
  'ÉCOLE école',
  'tab\there',
  'x]y[z',
  '  spaced  ',
  'emoji 😀 here',
  'price: $40',
  'no\u000bvertical',
];

const PATTERNS: [string, string][] = [
  ['\\d+\\s\\d{3}', ''],
  ['\\S+$', ''],
  ['[\\s,]+', ''],
  ['^line two$', 'm'],
  ['^line two$', ''],
  ['one.line', ''],
  ['one.+two', 's'],
  ['a.b', ''],
  ['\\u00e9cole', 'i'],
  ['\\u{1F600}', 'u'],
  ['ord-(?<n>\\d+)', 'i'],
  ['(?<=\\$)\\d+', ''],
  ['(?<!\\d)\\d{2}', ''],
  ['[\\]\\[]', ''],
  ['[[]', ''],
  ['[^]', ''],
  ['[]', ''],
  ['\\cI', ''],
  ['\\bshipped\\b', ''],
  ['^\\s*$', ''],
  ['\\x41|\\x20{2}', ''],
  ['a{,3}', ''],
  ['(?:tab|no)\\s', ''],
];

describe('compileLinear', () => {
  it.each(PATTERNS)('/%s/%s matches as RegExp does', (pattern, flags) => {
    const linear = compileLinear(pattern, flags);
    const native = new RegExp(pattern, flags);
    for (const answer of ANSWERS) {
      expect([linear.test(answer), linear.exec(answer)], JSON.stringify(answer)).toEqual([
        native.test(answer),
        native.exec(answer)?.[0] ?? null,
      ]);
    }
  });

  it('names what it refuses', () => {
    expect(() => compileLinear('(a)\\1', '')).toThrow(/backreferences/);
    expect(() => compileLinear('(?<x>a)\\k<x>', '')).toThrow(/backreferences/);
    expect(() => compileLinear('a(?!b)', '')).toThrow(/lookahead/);
    expect(() => compileLinear('[\\w--\\d]', 'v')).toThrow(/set operations \(flag v\)/);
  });
});

/**
 * Each grader on answers whose verdict is known by reading the rule in docs/items.md, and the
 * problems that make a grader impossible to build.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { createRng } from '../../src/stats/prng.js';
import { graders } from '../../src/graders/index.js';
import { readNumber } from '../../src/graders/number.js';
import type { Grader } from '../../src/graders/types.js';

const item = { id: 'q', domain: 'd', prompt: 'p', system: null, expected: null };

function grader(raw: unknown, expected?: unknown, baseDir = '.'): Grader {
  const problems: string[] = [];
  const built = graders.build(raw, expected, { baseDir, where: 'items.yml:1', item }, problems);
  if (!built) throw new Error(problems.join('; '));
  return built;
}

function problems(raw: unknown, expected?: unknown, baseDir = '.'): string[] {
  const found: string[] = [];
  graders.build(raw, expected, { baseDir, where: 'items.yml:1', item }, found);
  return found;
}

const verdicts = (g: Grader, answers: string[]) => answers.map((a) => g.grade(a).correct);

describe('exact', () => {
  it('trims, folds case and drops one final full stop; options keep case or punctuation', () => {
    const g = grader(undefined, 'No');
    expect(g.spec.type).toBe('exact');
    expect(verdicts(g, ['no', ' NO. ', 'No.', 'no!', 'no..', 'nope'])).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(verdicts(grader({ type: 'exact', 'keep-case': true }, 'No'), ['No', 'no'])).toEqual([
      true,
      false,
    ]);
    expect(
      verdicts(grader({ type: 'exact', 'keep-punctuation': true }, 'no'), ['no', 'no.']),
    ).toEqual([true, false]);
  });
});

describe('contains', () => {
  it('needs every expected text, and one of any; case-insensitive unless kept', () => {
    const g = grader({ type: 'contains', any: ['refund', 'credit'] }, ['order', '40 days']);
    expect(
      verdicts(g, [
        'Your ORDER is past 40 days: no refund.',
        'Order past 40 days, store credit only',
        'Order past 40 days.',
        'refund of the order',
      ]),
    ).toEqual([true, true, false, false]);
    expect(verdicts(grader({ type: 'contains', 'keep-case': true }, 'Paris'), ['paris'])).toEqual([
      false,
    ]);
  });
});

describe('regex', () => {
  it('searches the pattern anywhere, with flags', () => {
    const g = grader({ type: 'regex', pattern: '^INV-\\d{4}$', flags: 'm' });
    expect(verdicts(g, ['Invoice:\nINV-2041\n', 'INV-204', 'inv-2041'])).toEqual([
      true,
      false,
      false,
    ]);
  });

  it('refuses a broken pattern, stateful flags and an example it does not match', () => {
    expect(problems({ type: 'regex', pattern: '(' })[0]).toMatch(
      /^grader regex: pattern "\(" is not a valid regular expression: /,
    );
    expect(problems({ type: 'regex', pattern: 'a', flags: 'g' })).toEqual([
      'grader regex: flags "g": expected some of d, i, m, s, u, v',
    ]);
    expect(problems({ type: 'regex', pattern: '^\\d+$' }, 'twelve')).toEqual([
      'grader regex: expected "twelve" does not match the pattern "^\\\\d+$"',
    ]);
  });
});

describe('number', () => {
  it('reads the first number: signs, thousands separators, decimals, exponent', () => {
    expect(readNumber('The total is $1,234.50 (VAT incl.)')).toBe(1234.5);
    expect(readNumber('−3.5 degrees')).toBe(-3.5);
    expect(readNumber('about 1\u202f000 000')).toBe(1000);
    expect(readNumber('COVID-19 cases: 12')).toBe(19);
    expect(readNumber('A4 paper, 3 sheets')).toBe(3);
    expect(readNumber('.5 of it')).toBe(0.5);
    expect(readNumber('2.5e3 metres')).toBe(2500);
    expect(readNumber('3,5')).toBe(3);
    expect(readNumber('no digits')).toBeNull();
  });

  it('accepts within the absolute or relative tolerance, whichever is wider', () => {
    const g = grader({ type: 'number', tolerance: 0.5, relative: 0.01 }, 1000);
    // 1% of 1000 = 10 is wider than 0.5.
    expect(verdicts(g, ['1010', '990', '1010.01', 'none'])).toEqual([true, true, false, false]);
    expect(verdicts(grader('number', '12.50'), ['12.5', '12.51'])).toEqual([true, false]);
    expect(problems('number', 'twelve')).toEqual([
      'grader number: expected "twelve" is not one number',
    ]);
    expect(problems({ type: 'number', tolerance: -1 }, 3)).toEqual([
      'grader number: tolerance must be a number at or above 0, got -1',
    ]);
  });
});

describe('json', () => {
  const schema = {
    type: 'object',
    required: ['total', 'currency'],
    properties: { total: { type: 'number' }, currency: { enum: ['EUR', 'USD'] } },
  };

  it('parses the whole answer or one fenced block; validates the schema and the fields', () => {
    const g = grader({ type: 'json', schema }, { total: 40 });
    expect(
      verdicts(g, [
        '{"total": 40, "currency": "EUR"}',
        '```json\n{"total": 40, "currency": "USD"}\n```',
        'Here it is: {"total": 40, "currency": "EUR"}',
        '{"total": 41, "currency": "EUR"}',
        '{"total": 40}',
        '{"total": 40, "currency": "EUR"',
      ]),
    ).toEqual([true, true, false, false, false, false]);
    expect(g.grade('{"total": 40}').reading).toBe(
      "schema: (root) must have required property 'currency'",
    );
    expect(g.grade('{"total": 41, "currency": "EUR"}').reading).toBe('field "total" is "41"');
  });

  it('with search, takes the first JSON value found in prose', () => {
    const g = grader({ type: 'json', search: true }, { ok: true });
    expect(verdicts(g, ['Sure! {"ok": true} Anything else?', 'Sure! {"ok": tru'])).toEqual([
      true,
      false,
    ]);
  });

  it('refuses a schema Ajv cannot use: misspelt keyword, unknown format, wrong type', () => {
    expect(problems({ type: 'json', schema: { type: 'object', propertes: {} } })).toEqual([
      'grader json: schema is not a usable JSON Schema: strict mode: unknown keyword: "propertes"',
    ]);
    expect(problems({ type: 'json', schema: { type: 'string', format: 'email' } })[0]).toMatch(
      /unknown format "email"/,
    );
    expect(problems({ type: 'json', schema: 'object' })).toEqual([
      'grader json: schema: expected a JSON Schema written as a mapping, got "object"',
    ]);
  });
});

describe('label', () => {
  it('normalises the answer; off-label answers are wrong and marked', () => {
    const g = grader({ type: 'label', labels: ['billing', 'shipping', 'returns'] }, 'Shipping');
    expect(g.grade('**Shipping.**')).toEqual({ correct: true, reading: 'shipping' });
    expect(g.grade('"billing"')).toEqual({ correct: false, reading: 'billing' });
    expect(g.grade('It is about a parcel')).toEqual({
      correct: false,
      reading: 'off-label "it is about a parcel"',
      offLabel: true,
    });
    expect(problems({ type: 'label', labels: ['a', 'b'] }, 'c')).toEqual([
      'grader label: expected "c" is not one of the labels (a, b)',
    ]);
  });
});

describe('module', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mg-grader-'));
  writeFileSync(
    path.join(dir, 'even.mjs'),
    'export function grade(answer, item) { return Number(answer) % 2 === 0 && item.id === "q"; }\n',
  );
  writeFileSync(
    path.join(dir, 'throws.mjs'),
    'export function grade() { throw new Error("boom"); }\n',
  );
  writeFileSync(path.join(dir, 'none.mjs'), 'export const x = 1;\n');

  it('runs the repository module once loaded; its fingerprint follows the file', async () => {
    const g = grader({ type: 'module', module: 'even.mjs' }, undefined, dir);
    expect(() => g.grade('2')).toThrow(/before it was loaded/);
    await g.prepare();
    expect(verdicts(g, ['2', '3'])).toEqual([true, false]);
    writeFileSync(path.join(dir, 'even2.mjs'), 'export function grade() { return true; }\n');
    const other = grader({ type: 'module', module: 'even2.mjs' }, undefined, dir);
    expect(other.fingerprint).not.toBe(g.fingerprint);
  });

  it('a missing file, a file without grade, a throwing grade are bad input', async () => {
    expect(problems({ type: 'module', module: 'absent.mjs' }, undefined, dir)).toEqual([
      'grader module: module "absent.mjs" not found (paths are relative to the items file)',
    ]);
    const none = grader({ type: 'module', module: 'none.mjs' }, undefined, dir);
    await expect(none.prepare()).rejects.toThrow(InputError);
    const throws = grader({ type: 'module', module: 'throws.mjs' }, undefined, dir);
    await throws.prepare();
    expect(() => throws.grade('x')).toThrow(/items\.yml:1: grader module "throws\.mjs" threw/);
  });
});

describe('all, names, fingerprints', () => {
  it('all: every grader must accept; a mapping expected wins over the item one', () => {
    const g = grader({
      type: 'all',
      of: [
        { type: 'contains', expected: 'Paris' },
        { type: 'regex', pattern: '\\d{4}' },
      ],
    });
    expect(verdicts(g, ['Paris, 1889', 'Paris', '1889'])).toEqual([true, false, false]);
    expect(g.description).toBe('all of contains, regex');
  });

  it('refuses unknown graders and options, naming what is expected', () => {
    expect(problems('fuzzy', 'x')).toEqual([
      'unknown grader "fuzzy" (expected one of exact, contains, regex, number, json, label, module, all, not)',
    ]);
    expect(problems('containz', 'x')).toEqual([
      'unknown grader "containz"; did you mean "contains"? (expected one of exact, contains, regex, number, json, label, module, all, not)',
    ]);
    expect(problems({ type: 'exact', 'keep-cases': true }, 'x')).toEqual([
      'grader exact: unknown option "keep-cases"; did you mean "keep-case"? (expected one of keep-case, keep-punctuation, expected)',
    ]);
    expect(
      problems({ type: 'all', of: [{ type: 'regex', pattern: 'a', flag: 'i' }] }, 'a'),
    ).toEqual([
      'grader regex: unknown option "flag"; did you mean "flags"? (expected one of pattern, flags, expected)',
    ]);
    expect(problems({ type: 'contains', 'keep-case': 'yes', any: ['a', {}] }, 'x')).toEqual([
      'grader contains: any: expected a text or a list of non-empty texts, got a list',
      'grader contains: keep-case: expected boolean, got "yes"',
    ]);
    expect(problems(undefined, undefined)).toEqual([
      'no grader: give `expected` (graded exact) or a `grader`',
    ]);
  });

  it('the fingerprint changes with the definition, not with how it is written', () => {
    const a = grader({ type: 'number', tolerance: 1, expected: 3 });
    const b = grader({ expected: 3, tolerance: 1, type: 'number' });
    const c = grader({ type: 'number', tolerance: 2, expected: 3 });
    expect(a.fingerprint).toBe(b.fingerprint);
    expect(a.fingerprint).not.toBe(c.fingerprint);
    expect(a.fingerprint).toMatch(/^graders\/1:[0-9a-f]{12}$/);
  });
});

describe('not', () => {
  it('turns the verdict of its grader round, with its reading; nests in all and around it', () => {
    const g = grader({ type: 'not', of: { type: 'contains', any: ['sorry', 'apologise'] } });
    expect(verdicts(g, ['We open at 9.', 'Sorry, we open at 9.'])).toEqual([true, false]);
    expect(g.grade('Sorry!').reading).toBe('not: with "sorry"');
    expect(g.description).toBe('not contains (one of 2)');
    expect(graders.explain(g.spec)).toEqual([
      'right when the grader below refuses the answer, wrong when it accepts it:',
      'contains: the answer contains at least one of: "sorry", "apologise"; case ignored',
    ]);
    const inner = grader({ type: 'all', of: ['exact', { type: 'not', of: 'exact' }] }, 'x');
    expect(verdicts(inner, ['x', 'y'])).toEqual([false, false]);
    const around = grader({
      type: 'not',
      of: {
        type: 'all',
        of: [
          { type: 'regex', pattern: 'a' },
          { type: 'regex', pattern: 'b' },
        ],
      },
    });
    expect(verdicts(around, ['ab', 'a', ''])).toEqual([false, true, true]);
    // The item's expected reaches the grader inside, which may give its own.
    expect(verdicts(grader({ type: 'not', of: 'exact' }, 'no'), ['No.', 'yes'])).toEqual([
      false,
      true,
    ]);
  });

  it('needs one grader in `of`, and a label inside still counts off-label answers', () => {
    expect(problems({ type: 'not' })).toEqual([
      'grader not: needs `of`, the grader whose verdict is turned round',
    ]);
    expect(problems({ type: 'not', of: { type: 'regex' } })).toEqual([
      'grader regex: needs `pattern`, a regular expression (JavaScript syntax)',
    ]);
    const g = grader({ type: 'not', of: { type: 'label', labels: ['a', 'b'] } }, 'a');
    expect(g.countsOffLabel).toBe(true);
    expect(g.grade('c')).toMatchObject({ correct: true, offLabel: true });
    expect(g.grade('a').correct).toBe(false);
  });

  it("a scripted model's right, wrong and malformed answers are graded so", () => {
    const g = grader({ type: 'not', of: { type: 'label', labels: ['yes', 'no'] } }, 'yes');
    const rng = createRng(3);
    expect(g.grade(graders.simulate.right(g.spec, 'yes', rng)).correct).toBe(true);
    expect(g.grade(graders.simulate.wrong(g.spec, rng) as string).correct).toBe(false);
    expect(g.grade(graders.simulate.malformed(g.spec)).correct).toBe(false);
  });
});

/**
 * Graders as a table: the fingerprints of every type are those of the release before the
 * table (a changed fingerprint makes every logged answer look graded by another grader), the
 * simulator draws the same answers, and a kind handed to the host is all it needs — built,
 * graded, named, explained and simulated, inside `all` too, with no case for it anywhere else.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { loadItemsFile } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { graderHost } from '../../src/graders/host.js';
import { GRADER_KINDS, graders } from '../../src/graders/index.js';
import type { GraderKind, GraderSpec } from '../../src/graders/types.js';
import { drawOpenAnswer } from '../../src/simulator/behaviours/openAnswers.js';
import { createRng } from '../../src/stats/prng.js';

const item = { id: 'q', domain: 'd', prompt: 'p', system: null, expected: null };
const site = { baseDir: '.', where: 'items.yml:1', item };

describe('fingerprints of the graders, as the release before the table wrote them', () => {
  // Computed by the code before the table; a change here makes cached logs look regraded.
  const known: [unknown, unknown, string, string][] = [
    [undefined, 'No', 'graders/1:94c48c292cae', 'exact'],
    [
      { type: 'exact', 'keep-case': true, 'keep-punctuation': true },
      'No.',
      'graders/1:37e4c90e33a2',
      'exact (case and full stop kept)',
    ],
    [
      { type: 'contains', any: ['refund', 'credit'], 'keep-case': true },
      ['order', '40 days'],
      'graders/1:588266c3ca6f',
      'contains (all of 2, one of 2, case kept)',
    ],
    [
      { type: 'regex', pattern: '\\bRET-\\d{4}\\b', flags: 'i' },
      'RET-4471',
      'graders/1:f837e5a0eb5f',
      'regex /\\bRET-\\d{4}\\b/i',
    ],
    [
      { type: 'number', tolerance: 0.01, relative: 0.1 },
      89.75,
      'graders/1:f03ec5aaaed8',
      'number (± 0.01 or ± 10%)',
    ],
    [
      { type: 'json', schema: { type: 'object', required: ['total'] }, search: true },
      { total: 3 },
      'graders/1:b20bfb07e885',
      'json (schema, 1 field, searched)',
    ],
    [
      { type: 'label', labels: ['Billing', 'shipping'] },
      'billing',
      'graders/1:d7e63b777eba',
      'label (2 labels)',
    ],
    [
      { type: 'module', module: 'docs/examples/graders/word.mjs' },
      'odd',
      'graders/1:03205ee25240',
      'module docs/examples/graders/word.mjs',
    ],
    [
      { type: 'all', of: ['exact', { type: 'regex', pattern: 'o' }] },
      'no',
      'graders/1:b4f4d7040309',
      'all of exact, regex',
    ],
  ];

  it.each(known)('%j on %j', (raw, expected, fingerprint, description) => {
    const problems: string[] = [];
    const grader = graders.build(raw, expected, site, problems);
    expect(problems).toEqual([]);
    expect([grader?.fingerprint, grader?.description]).toEqual([fingerprint, description]);
  });

  it('the items files of the demo and the docs keep their fingerprints and simulated answers', () => {
    const files = {
      'fixtures/items/demo.yml': [
        'graders/1:e4ca4f511720,graders/1:81d9cc4776c1,graders/1:935715859bff,graders/1:a35c06d9b705,graders/1:743c59da6df2,graders/1:0c28c0dbcad9,graders/1:90361c11ec7f,graders/1:d85b1da8fe2d,graders/1:a8cbc48c4fd4,graders/1:0c8ffe1a7b45,graders/1:4f8a6e219599,graders/1:c81b4c94a262',
        '56b5c51d32521c68',
      ],
      'docs/examples/open-items.yml': [
        'graders/1:e4ca4f511720,graders/1:ed1dac94bf3f,graders/1:ae822a772043,graders/1:a35c06d9b705,graders/1:475ec3d17993,graders/1:2e43692bd3e4,graders/1:4ea9d44306e0,graders/1:9e20d41999bb',
        'af43a1f150434fcf',
      ],
    };
    for (const [file, [fingerprints, answers]] of Object.entries(files)) {
      // The items the files held then (one was added since, for the `not` grader).
      const open = loadItemsFile(file)
        .items.filter((i): i is OpenItem => i.kind === 'open')
        .slice(0, String(fingerprints).split(',').length);
      expect(open.map((i) => i.grader.fingerprint).join(','), file).toBe(fingerprints);
      const hash = createHash('sha256');
      for (const one of open) {
        if (graders.runsCode(one.grader.spec)) continue;
        for (let seed = 0; seed < 50; seed++) {
          for (const p of [0, 0.5, 1]) {
            const draw = { model: 'm', seed, temperature: 0.7 };
            hash.update(`${drawOpenAnswer(p, one, draw, { invalid: 0.05, malformed: 0.3 })}\0`);
          }
        }
      }
      expect(hash.digest('hex').slice(0, 16), file).toBe(answers);
    }
  });
});

/** A grader type the project does not have: the answer, reversed, equals `expected`. */
interface MirrorSpec extends GraderSpec {
  type: 'mirror';
  expected: string;
}

const mirror: GraderKind<MirrorSpec, { expected: z.ZodType }> = {
  type: 'mirror',
  options: { expected: z.unknown().optional() },
  build(options, expected) {
    if (typeof expected !== 'string') options.problem('needs `expected`, a text');
    return options.ok ? { type: 'mirror', expected: expected as string } : null;
  },
  grade: (spec, answer) => ({
    correct: [...answer].reverse().join('') === spec.expected,
    reading: answer,
  }),
  describe: () => 'mirror',
  explain: (spec) => [`the answer reversed is ${JSON.stringify(spec.expected)}`],
  simulate: {
    right: (spec) => [...spec.expected].reverse().join(''),
    wrong: (spec) => spec.expected,
  },
};

describe('a grader is one entry of the table', () => {
  const host = graderHost([...GRADER_KINDS, mirror]);

  it('is read, graded, named, explained and simulated from its entry alone', () => {
    const problems: string[] = [];
    const grader = host.build({ type: 'mirror' }, 'abc', site, problems);
    expect(problems).toEqual([]);
    expect(grader?.description).toBe('mirror');
    expect(grader?.fingerprint).toMatch(/^graders\/1:[0-9a-f]{12}$/);
    expect(['cba', 'abc'].map((a) => grader?.grade(a).correct)).toEqual([true, false]);
    expect(host.explain(grader?.spec as GraderSpec)).toEqual(['the answer reversed is "abc"']);
    const rng = createRng(1);
    expect(host.simulate.right(grader?.spec as GraderSpec, 'abc', rng)).toBe('cba');
    expect(host.simulate.wrong(grader?.spec as GraderSpec, rng)).toBe('abc');
    expect(host.simulate.malformed(grader?.spec as GraderSpec)).toBe(
      'Sorry, I cannot help with that.',
    );
    expect(host.build({ type: 'mirror' }, undefined, site, problems)).toBeNull();
    expect(problems).toEqual(['grader mirror: needs `expected`, a text']);
  });

  it('works inside a composite grader, and is named in the list of types', () => {
    const problems: string[] = [];
    const grader = host.build(
      {
        type: 'all',
        of: [
          { type: 'mirror', expected: 'olleh' },
          { type: 'contains', expected: 'h' },
        ],
      },
      undefined,
      site,
      problems,
    );
    expect(problems).toEqual([]);
    expect(grader?.description).toBe('all of mirror, contains');
    expect(['hello', 'olleh'].map((a) => grader?.grade(a).correct)).toEqual([true, false]);
    expect(host.explain(grader?.spec as GraderSpec)[1]).toBe(
      '1. mirror: the answer reversed is "olleh"',
    );
    const unknown: string[] = [];
    graders.build({ type: 'mirror' }, 'x', site, unknown);
    expect(unknown).toEqual([
      'unknown grader "mirror" (expected one of exact, contains, regex, number, json, label, module, all, not)',
    ]);
    expect(host.types.at(-1)).toBe('mirror');
  });
});

describe('adding a grader touches two files: its own and the list', () => {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const src = path.resolve(here, '../../src');
  /** The host and what the kinds share: every other file of the folder is one kind. */
  const SHARED = [
    'host.ts',
    'index.ts',
    'linearRegex.ts',
    'options.ts',
    'repositoryRoot.ts',
    'text.ts',
    'types.ts',
  ];

  it('every other file of the folder is one kind, listed once, with all it must have', async () => {
    const files = readdirSync(path.join(src, 'graders')).filter((f) => !SHARED.includes(f));
    const kinds = await Promise.all(
      files.map(async (f) => {
        const module = (await import(path.join(src, 'graders', f))) as Record<string, unknown>;
        return Object.values(module).filter((v) => GRADER_KINDS.includes(v as GraderKind));
      }),
    );
    expect(kinds.map((k) => k.length)).toEqual(files.map(() => 1));
    expect(kinds.flat().length).toBe(GRADER_KINDS.length);
    for (const kind of GRADER_KINDS) {
      expect(typeof kind.options, kind.type).toBe('object');
      for (const part of ['build', 'grade', 'describe', 'explain'] as const)
        expect(typeof kind[part], `${kind.type}.${part}`).toBe('function');
    }
  });

  it('no code outside the graders and the importers names a grader type or reaches a kind', () => {
    // "number", "json", "all" and "not" are common words (an input's type, a JSON Schema's):
    // the names no other meaning uses are looked for as values, every kind's file as an import.
    const own = GRADER_KINDS.map((k) => k.type).filter(
      (t) => !['number', 'json', 'all', 'not'].includes(t),
    );
    const naming = new RegExp(`\\b(type|grader|kind)\\s*(:|===|!==)\\s*['"](${own.join('|')})['"]`);
    const kindFile = /graders\/(?!index\.js|types\.js)\w+\.js/;
    const found: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const file = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          if (!['graders', 'import'].includes(path.relative(src, file))) walk(file);
        } else if (file.endsWith('.ts')) {
          const text = readFileSync(file, 'utf8');
          if (naming.test(text) || kindFile.test(text)) found.push(path.relative(src, file));
        }
      }
    };
    walk(src);
    expect(found).toEqual([]);
  });
});

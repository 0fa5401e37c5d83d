/**
 * Config, items and catalogue are data. A pull request may write anything in them, so:
 * - `__proto__:` cannot supply settings (key camelisation assigned it as the prototype, which
 *   the unknown-key check never saw: `fail-on: never` passed as valid); `__proto__`,
 *   `constructor` and `prototype` are refused with the key and the line;
 * - anchors, aliases and merge keys resolve as YAML defines them (an alias in an item sent
 *   "[object Object]" to the model, `domain: *dom` became "general");
 * - a key written twice is refused in every file, items included (the later `answer` won);
 * - an alias bomb is bad input (exit 2), found before it fills the memory, not an internal
 *   error (exit 3).
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isChoiceItem, parseItems } from '../../src/checks/churn/items.js';
import { parseCatalogue } from '../../src/checks/personas/catalogue.js';
import { loadConfig } from '../../src/config/load.js';
import { parseYamlDocument, yamlValue } from '../../src/config/yaml.js';
import { ExitCode, formatGateError, InputError } from '../../src/errors.js';
import { cli } from '../support/smallRun.js';

function refusal(work: () => unknown): string {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(ExitCode.badInput);
    return formatGateError(error as InputError);
  }
  throw new Error('accepted');
}

function file(name: string, text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-data-'));
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
}

const ITEM = 'question: "Which?"\n  choices: [a, b]\n  answer: A';

describe('reserved keys', () => {
  it('a __proto__ block in model-gate.yml is refused with its line, not applied', async () => {
    const config = file(
      'model-gate.yml',
      'models:\n  baseline: a:1b\n__proto__:\n  fail-on: never\n  checks: [dragon]\n  models:\n    candidate: b:1b\n',
    );
    const said = refusal(() => loadConfig({ checks: CHECKS, file: config, env: {} }));
    expect(said).toContain('line 3, column 1: key "__proto__" is not accepted');
    const validate = await cli(['validate', '--config', config]);
    expect(validate.code).toBe(ExitCode.badInput);
    expect(validate.stderr).toContain('key "__proto__" is not accepted');
    expect(validate.stdout).not.toContain('valid');
  });

  it('constructor and prototype too, at any depth and in every kind of file', () => {
    for (const key of ['constructor', 'prototype', '__proto__']) {
      expect(
        refusal(() =>
          loadConfig({ checks: CHECKS, file: file('c.yml', `models:\n  ${key}: x\n`), env: {} }),
        ),
      ).toContain(`line 2, column 3: key "${key}" is not accepted`);
      expect(
        refusal(() => parseItems(`- id: q1\n  ${key}: 1\n  ${ITEM}\n`, 'items.yml')),
      ).toContain(`line 2, column 3: key "${key}"`);
      expect(
        refusal(() =>
          parseItems(
            `{"id": "q1", "${key}": {}, "question": "?", "choices": ["a", "b"], "answer": "A"}\n`,
            'items.jsonl',
          ),
        ),
      ).toContain(`items.jsonl:1: key "${key}" is not accepted`);
      expect(
        refusal(() =>
          parseItems(
            `[\n  {"id": "q1", "question": "?",\n   "${key}": 1, "choices": ["a", "b"], "answer": "A"}\n]\n`,
            'items.json',
          ),
        ),
      ).toContain(`line 3: key "${key}" is not accepted`);
    }
    const catalogue =
      'language: en\nassistants:\n  constructor: "You help."\n  b: "You also help."\nprobes: [x, y]\n';
    expect(refusal(() => parseCatalogue(catalogue, 'personas.yml'))).toContain(
      'line 3, column 3: key "constructor" is not accepted',
    );
  });

  it('item ids and texts may still say __proto__: values are data', () => {
    const { items } = parseItems(
      `- id: __proto__\n  domain: constructor\n  ${ITEM}\n`,
      'items.yml',
    );
    expect(items[0]).toMatchObject({ id: '__proto__', domain: 'constructor' });
  });
});

describe('anchors, aliases and merge keys', () => {
  it('resolve in items as YAML defines them', () => {
    const text = [
      '- id: q1',
      '  domain: &dom physics',
      '  question: "Which fruit?"',
      '  choices: [Rock, &fruit Apple, Paper]',
      '  answer: B',
      '- id: q2',
      '  domain: *dom',
      '  question: "Which again?"',
      '  choices: [Rock, *fruit]',
      '  answer: B',
      '- &defaults',
      '  id: q3',
      '  domain: law',
      '  question: "Base?"',
      '  choices: [yes, no]',
      '  answer: A',
      '- <<: *defaults',
      '  id: q4',
      '  answer: B',
    ].join('\n');
    const { items } = parseItems(text, 'items.yml');
    const choiceItems = items.filter(isChoiceItem);
    expect(choiceItems).toHaveLength(items.length);
    expect(choiceItems.map((i) => [i.id, i.domain, i.choices.join('|'), i.answer, i.line])).toEqual(
      [
        ['q1', 'physics', 'Rock|Apple|Paper', 'B', 1],
        ['q2', 'physics', 'Rock|Apple', 'B', 6],
        ['q3', 'law', 'yes|no', 'A', 12],
        ['q4', 'law', 'yes|no', 'B', 17],
      ],
    );
  });

  it('merge keys: written keys win, earlier merged mappings win over later ones', () => {
    const text = 'a: &a {x: 1, y: 1}\nb: &b {y: 2, z: 2}\nc:\n  <<: [*a, *b]\n  x: 0\n';
    expect(yamlValue(parseYamlDocument(text, 'm.yml'))).toEqual({
      a: { x: 1, y: 1 },
      b: { y: 2, z: 2 },
      c: { x: 0, y: 1, z: 2 },
    });
  });

  it('resolve in the config and the catalogue', () => {
    const config = file(
      'model-gate.yml',
      'models:\n  baseline: &tag a:1b\n  candidate: b:1b\nrunner: &r {concurrency: 3}\nchurn:\n  samples: 4\n',
    );
    expect(loadConfig({ checks: CHECKS, file: config, env: {} }).config.runner.concurrency).toBe(3);
    const catalogue = parseCatalogue(
      'language: en\nassistants:\n  a: &p "You help with A."\n  b:\n    prompt: *p\n    paraphrase-of: a\nprobes: [x, y]\n',
      'personas.yml',
    );
    expect(catalogue.assistants.map((a) => a.prompt)).toEqual([
      'You help with A.',
      'You help with A.',
    ]);
  });

  it('an alias of nothing, or of the node it sits in, names its line', () => {
    expect(refusal(() => parseYamlDocument('a: *nothing\n', 'x.yml'))).toContain('line 1');
    expect(refusal(() => parseYamlDocument('a: &a [1, *a]\n', 'x.yml'))).toContain(
      'line 1, column 11: alias *a is inside the node it names',
    );
    expect(refusal(() => parseYamlDocument('a: 1\nb:\n  <<: 3\n', 'x.yml'))).toContain(
      'line 3, column 3: a merge key (<<) expects a mapping',
    );
  });
});

/** Nine levels of ten aliases each: a billion values from a few hundred bytes. */
function aliasBomb(prefix = ''): string {
  const lines = ['l0: &l0 [x, x, x, x, x, x, x, x, x, x]'];
  for (let i = 1; i <= 9; i++)
    lines.push(
      `l${i}: &l${i} [${Array(10)
        .fill(`*l${i - 1}`)
        .join(', ')}]`,
    );
  return `${prefix}${lines.join('\n')}\n`;
}

describe('alias bombs', () => {
  it('in model-gate.yml: bad input (exit 2) naming the line where expansion passed the bound', async () => {
    const config = file('model-gate.yml', aliasBomb('models:\n  baseline: a:1b\n'));
    const said = refusal(() => loadConfig({ checks: CHECKS, file: config, env: {} }));
    expect(said).toMatch(/model-gate\.yml: line \d+, column \d+: aliases expand too far/);
    expect(said).toContain('aliases may add at most 100,000 values');
    const run = await cli(['validate', '--config', config]);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).not.toContain('internal error');
  });

  it('in items and in the catalogue too', () => {
    expect(
      refusal(() => parseItems(`- ${aliasBomb().replace(/\n/g, '\n  ')}`, 'items.yml')),
    ).toContain('aliases expand too far');
    expect(refusal(() => parseCatalogue(aliasBomb('language: en\n'), 'personas.yml'))).toContain(
      'aliases expand too far',
    );
  });

  it('nesting deeper than the bound is bad input, however it is written', () => {
    const deep = (text: string) => refusal(() => parseYamlDocument(text, 'x.yml'));
    expect(deep(`a: ${'['.repeat(100)}${']'.repeat(100)}\n`)).toContain('nested too deeply');
    // Deep enough that the parser's stack would give out and take the process with it.
    expect(deep(`${'['.repeat(200_000)}${']'.repeat(200_000)}\n`)).toContain('nested too deeply');
    // Quoted brackets are text, not nesting.
    expect(yamlValue(parseYamlDocument(`a: "${'['.repeat(1000)}"\n`, 'x.yml'))).toEqual({
      a: '['.repeat(1000),
    });
    const block = Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}k${i}:`).join('\n');
    expect(deep(`${block} x\n`)).toContain('nested too deeply');
  });
});

describe('duplicate keys', () => {
  it('are refused in items, whatever the format, with both lines', () => {
    expect(refusal(() => parseItems(`- id: q1\n  ${ITEM}\n  answer: B\n`, 'items.yml'))).toContain(
      'line 5, column 3: map keys must be unique: "answer" is written again (first on line 4)',
    );
    expect(
      refusal(() =>
        parseItems(
          '{"id": "q1", "question": "?", "choices": ["a", "b"], "answer": "A", "answer": "B"}\n',
          'items.jsonl',
        ),
      ),
    ).toContain('items.jsonl:1: key "answer" written twice in one object (first on line 1)');
    expect(
      refusal(() =>
        parseItems(
          '[\n {"id": "q1", "question": "?", "choices": ["a", "b"],\n  "answer": "A",\n  "answer": "B"}\n]\n',
          'items.json',
        ),
      ),
    ).toContain('line 4: key "answer" written twice in one object (first on line 3)');
    // Spaces before the colon, a value that itself holds '":': the second "id" is found.
    expect(
      refusal(() =>
        parseItems(
          '{"id" : "q1", "question": "say \\":\\" twice", "id"\t: "q2", "choices": ["a", "b"], "answer": "A"}\n',
          'items.jsonl',
        ),
      ),
    ).toContain('key "id" written twice');
    // Escapes spell the same key: "\u0069d" is "id".
    expect(
      refusal(() =>
        parseItems(
          '{"id": "q1", "\\u0069d": "q2", "question": "?", "choices": ["a", "b"], "answer": "A"}\n',
          'items.jsonl',
        ),
      ),
    ).toContain('key "id" written twice');
  });

  it('are refused in the config and the catalogue', () => {
    expect(
      refusal(() =>
        loadConfig({
          checks: CHECKS,
          file: file('c.yml', 'models:\n  baseline: a\n  baseline: b\n'),
          env: {},
        }),
      ),
    ).toContain('line 3, column 3: map keys must be unique');
  });
});

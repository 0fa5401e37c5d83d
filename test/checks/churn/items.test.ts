import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isChoiceItem, loadItemsFile, parseItems } from '../../../src/checks/churn/items.js';
import { InputError } from '../../../src/errors.js';

const FIXTURE = path.resolve('fixtures/items/general.yml');

function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('fixtures/items/general.yml', () => {
  const loaded = loadItemsFile(FIXTURE, 'general.yml');
  const { warnings } = loaded;
  const items = loaded.items.filter(isChoiceItem);

  it('holds at least 60 items over at least four domains, law among them', () => {
    expect(items.length).toBeGreaterThanOrEqual(60);
    const domains = new Set(items.map((item) => item.domain));
    expect(domains.size).toBeGreaterThanOrEqual(4);
    expect(domains.has('law')).toBe(true);
    expect(warnings).toEqual([]);
  });

  it('has the right answer on every arithmetic item', () => {
    // Each arithmetic question evaluated here, independently of the answer letter written.
    const truth: Record<string, string> = {
      'arithmetic-01': String(17 * 23),
      'arithmetic-02': String(144 / 12),
      'arithmetic-03': String(0.15 * 240),
      'arithmetic-04': String(2 ** 10),
      'arithmetic-05': String(7 * 8 - 6),
      'arithmetic-06': String(Math.sqrt(169)),
      'arithmetic-07': '7/8',
      'arithmetic-08': String(1000 - 387),
      'arithmetic-09': '24',
      'arithmetic-10': String(0.25 * 48),
      'arithmetic-11': '12',
      'arithmetic-12': String(999 + 1001),
    };
    for (const [id, value] of Object.entries(truth)) {
      const item = items.find((candidate) => candidate.id === id);
      expect(item, id).toBeDefined();
      const index = 'ABCD'.indexOf(item?.answer ?? '?');
      expect(item?.choices[index], id).toBe(value);
    }
  });

  it('keeps the line of each item for messages', () => {
    const lines = readFileSync(FIXTURE, 'utf8').split('\n');
    for (const item of items.slice(0, 5)) {
      expect(lines[item.line - 1]).toContain(`id: ${item.id}`);
    }
  });
});

describe('fixtures/items/demo.yml', () => {
  it('holds the multiple-choice items of general.yml as they are, and 12 open items', () => {
    const demo = loadItemsFile('fixtures/items/demo.yml');
    const general = loadItemsFile(FIXTURE);
    const strip = (item: object) => ({ ...item, line: 0 });
    expect(demo.warnings).toEqual([]);
    expect(demo.items.filter(isChoiceItem).map(strip)).toEqual(general.items.map(strip));
    const open = demo.items.filter((item) => item.kind === 'open');
    expect(open.map((item) => item.domain)).toEqual(new Array(12).fill('support'));
    expect(open.every((item) => item.kind === 'open' && item.maxTokens === 120)).toBe(true);
  });
});

describe('parseItems', () => {
  it('accepts MMLU-Pro rows as they are (JSON Lines)', () => {
    const text = [
      JSON.stringify({
        question_id: 70,
        question: 'Which is a tort?',
        options: ['Negligence', 'Theft', 'Arson'],
        answer: 'A',
        answer_index: 0,
        cot_content: '',
        category: 'law',
        src: 'ori_mmlu-professional_law',
      }),
      '',
      JSON.stringify({
        question_id: 71,
        question: 'Q?',
        options: ['x', 'y'],
        answer_index: 1,
        category: 'law',
      }),
    ].join('\n');
    const { items, warnings } = parseItems(text, 'mmlu.jsonl');
    expect(items).toEqual([
      {
        id: '70',
        domain: 'law',
        question: 'Which is a tort?',
        choices: ['Negligence', 'Theft', 'Arson'],
        answer: 'A',
        line: 1,
      },
      { id: '71', domain: 'law', question: 'Q?', choices: ['x', 'y'], answer: 'B', line: 3 },
    ]);
    expect(warnings).toEqual([]);
  });

  it('accepts a JSON array with 0-based answer indices and reports lines', () => {
    const text =
      '[\n  {"id": "a", "question": "Q1", "choices": ["x", "y"], "answer": 1},\n  {"id": "b", "question": "Q2", "choices": ["x", "y", "z"], "answer": "c"}\n]';
    const items = parseItems(text, 'items.json').items.filter(isChoiceItem);
    expect(items.map((item) => [item.id, item.answer, item.line, item.domain])).toEqual([
      ['a', 'B', 2, 'general'],
      ['b', 'C', 3, 'general'],
    ]);
  });

  it('names file and line for every problem', () => {
    const text = [
      '- {id: a, question: "Q", choices: [x, y], answer: A}',
      '- {id: a, question: "Q again", choices: [x, y], answer: B}',
      '- {id: b, question: "Q", choices: [x], answer: A}',
      '- {id: c, question: "  ", choices: [x, y], answer: A}',
      '- {id: d, question: "Q", choices: [x, y]}',
      '- {id: e, question: "Q", choices: [x, y], answer: D}',
      '- {id: f, question: "Q", choices: [x, y], answer: A, answer_index: 1}',
    ].join('\n');
    const error = inputError(() => parseItems(text, 'items.yml'));
    expect(error.message).toBe('items.yml: 6 invalid items');
    expect(error.details).toEqual([
      'items.yml:2: duplicate id "a" (first used on line 1)',
      'items.yml:3 (item "b"): 1 choice(s); at least 2 are needed',
      'items.yml:4 (item "c"): empty question',
      'items.yml:5 (item "d"): missing answer (expected "answer": A–B or "answer_index")',
      'items.yml:6 (item "e"): unknown answer "D" (expected A–B)',
      'items.yml:7 (item "f"): answer A and answer_index (B) disagree',
    ]);
  });

  it('names the line of the field at fault in YAML, and of the item in JSON Lines', () => {
    const yaml = [
      '- id: a',
      '  question: Which?',
      '  choices:',
      '    - one',
      '    - {text: two}',
      '  answer: A',
      '- id: b',
      '  question: [not, a, text]',
      '  choices: [x, y]',
      '  answer: A',
    ].join('\n');
    expect(inputError(() => parseItems(yaml, 'items.yml')).details).toEqual([
      'items.yml:5 (item "a"): choices[1]: expected a text, got a mapping',
      'items.yml:8 (item "b"): question: expected string, got a list',
    ]);
    const jsonl = [
      JSON.stringify({ id: 'a', question: 'Q', choices: ['x', 'y'], answer: 'A' }),
      JSON.stringify({ id: 'b', question: 'Q', options: ['x', ['y']], answer_index: 1 }),
    ].join('\n');
    expect(inputError(() => parseItems(jsonl, 'i.jsonl')).details).toEqual([
      'i.jsonl:2 (item "b"): options[1]: expected a text, got a list',
    ]);
  });

  it('names the line of a grader option no grader knows, however deep', () => {
    const yaml = [
      '- id: order',
      '  prompt: Order number?',
      '  expected: ORD-12345',
      '  grader:',
      '    type: all',
      '    of:',
      '      - {type: regex, pattern: "ORD-\\\\d+"}',
      '      - {type: contains, keep_case: true}',
    ].join('\n');
    expect(inputError(() => parseItems(yaml, 'items.yml')).details).toEqual([
      'items.yml:4 (item "order"): grader contains: unknown option "keep_case"; did you mean "keep-case"? (expected one of any, keep-case, expected)',
    ]);
    const json = `[\n  {"id": 7, "prompt": "P", "expected": 3,\n   "grader": {"type": "number", "tolerance": "1%"}}\n]`;
    expect(inputError(() => parseItems(json, 'items.json')).details).toEqual([
      'items.json:2 (item "7"): grader number: tolerance: expected number, got "1%"',
    ]);
  });

  it('warns about unknown fields without failing', () => {
    const { items, warnings } = parseItems(
      '- {id: a, question: Q, choices: [x, y], answer: A, hint: no}\n',
      'i.yml',
    );
    expect(items).toHaveLength(1);
    expect(warnings).toEqual(['i.yml:1: unknown field hint (ignored)']);
  });

  it('rejects a file that is not a list', () => {
    expect(inputError(() => parseItems('id: a\n', 'i.yaml')).message).toBe(
      'i.yaml: expected a list of items',
    );
    expect(inputError(() => parseItems('{"id": 1\n', 'i.jsonl')).details[0]).toMatch(
      /^i\.jsonl:1: not valid JSON/,
    );
  });
});

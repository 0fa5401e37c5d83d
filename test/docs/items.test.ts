/**
 * docs/items.md: its example files load with the documented meaning of each field, the YAML
 * shown in the page is those files, every answer shown under a grader is graded as the page
 * says, and the errors shown are the ones bad files give.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isChoiceItem, loadItemsFile, parseItems } from '../../src/checks/churn/items.js';
import { type OpenItem, prepareGraders } from '../../src/checks/churn/openItems.js';
import { formatGateError, InputError } from '../../src/errors.js';
import { graders } from '../../src/graders/index.js';

const page = readFileSync('docs/items.md', 'utf8');

/** The fenced blocks of a markdown page with the given info string, in order. */
/** The code blocks of a language (`''`: none given), each fence paired with the next one. */
function blocks(markdown: string, lang: string): string[] {
  const found: string[] = [];
  let open: { lang: string; lines: string[] } | null = null;
  for (const line of markdown.split('\n')) {
    if (open === null) {
      if (line.startsWith('```')) open = { lang: line.slice(3), lines: [] };
    } else if (line === '```') {
      if (open.lang === lang) found.push(`${open.lines.join('\n')}\n`);
      open = null;
    } else {
      open.lines.push(line);
    }
  }
  return found;
}

describe('docs/items.md', () => {
  it('shows docs/examples/items.yml as it is', () => {
    expect(blocks(page, 'yaml')).toContain(readFileSync('docs/examples/items.yml', 'utf8'));
  });

  it('the example loads: letters, 0-based indexes and MMLU-Pro names', () => {
    const loaded = loadItemsFile('docs/examples/items.yml');
    const items = loaded.items.filter(isChoiceItem);
    expect(loaded.warnings).toEqual([]);
    expect(items.map((i) => [i.id, i.domain, i.answer, i.choices.length])).toEqual([
      ['law-01', 'law', 'B', 4],
      ['arith-01', 'arithmetic', 'B', 4],
      ['1043', 'economics', 'B', 3],
    ]);
    expect(items[1]?.choices[1]).toBe(String(17 * 3));
  });

  it('the JSON Lines line is the same item as the first YAML one', () => {
    const [line] = blocks(page, 'json');
    const fromJsonl = parseItems(line as string, 'items.jsonl').items[0];
    const fromYaml = loadItemsFile('docs/examples/items.yml').items[0];
    expect({ ...fromJsonl, line: 0 }).toEqual({ ...fromYaml, line: 0 });
  });

  it('the error shown is the one a bad file gives', () => {
    const bad = [
      '# items with two mistakes',
      '',
      '- id: law-01',
      '  question: Which party bears the burden of proof?',
      '  choices: [The defendant, The prosecution, The judge, The jury]',
      '  answer: B',
      '- id: law-02',
      '  question: Which standard of proof applies to a conviction?',
      '- id: law-01',
      '  question: A repeated id',
      '  choices: [Yes, No]',
      '  answer: A',
    ].join('\n');
    // law-02 lacks its choices and answer: the page shows another mistake on the same line,
    // so compare the shape of the message and the duplicate line exactly.
    let error: unknown;
    try {
      parseItems(bad, 'items.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const text = formatGateError(error as InputError);
    expect(text).toMatch(/^items\.yml: \d+ invalid items\n/);
    expect(text).toContain('  - items.yml:9: duplicate id "law-01" (first used on line 3)');
    const shown = blocks(page, '').find((b) => b.includes('invalid items')) ?? '';
    expect(shown).toContain('items.yml:9: duplicate id "law-01" (first used on line 3)');
    const answerError = parseErrorLine(
      ['- id: law-02', '  question: Q?', '  choices: [a, b, c, d]', '  answer: E'].join('\n'),
    );
    // The line of the answer, not of the item.
    expect(answerError).toBe('items.yml:4 (item "law-02"): unknown answer "E" (expected A–D)');
    expect(shown).toContain(answerError.replace('items.yml:4', 'items.yml:7'));
  });
});

function parseErrorLine(text: string): string {
  try {
    parseItems(text, 'items.yml');
  } catch (error) {
    return (error as InputError).details[0] ?? '';
  }
  return '';
}

describe('docs/items.md: open items and graders', () => {
  it('shows docs/examples/open-items.yml and its grader module as they are', () => {
    expect(blocks(page, 'yaml')).toContain(readFileSync('docs/examples/open-items.yml', 'utf8'));
    expect(blocks(page, 'js')).toContain(readFileSync('docs/examples/graders/word.mjs', 'utf8'));
  });

  it('every answer shown under a grader is graded as the page says; every type has one', async () => {
    const { items, warnings } = loadItemsFile('docs/examples/open-items.yml');
    expect(warnings).toEqual([]);
    await prepareGraders(items);
    const open = new Map(
      items.filter((i): i is OpenItem => i.kind === 'open').map((i) => [i.id, i]),
    );
    expect([...open.values()].map((i) => i.grader.spec.type).sort()).toEqual(
      [...graders.types].sort(),
    );
    expect(open.get('invoice-json')?.maxTokens).toBe(400);
    expect(open.get('tower')?.maxTokens).toBe(200);
    const lines = blocks(page, 'answers').flatMap((b) => b.trim().split('\n'));
    const seen = new Map<string, Set<string>>();
    for (const line of lines) {
      const match = /^(\S+): (".*") → (right|wrong|off-label)$/.exec(line);
      expect(match, line).not.toBeNull();
      const [, id, answer, verdict] = match as unknown as [string, string, string, string];
      const item = open.get(id);
      expect(item, line).toBeDefined();
      const grade = item?.grader.grade(JSON.parse(answer) as string);
      const got = grade?.offLabel ? 'off-label' : grade?.correct ? 'right' : 'wrong';
      expect(got, line).toBe(verdict);
      const type = item?.grader.spec.type as string;
      seen.set(type, (seen.get(type) ?? new Set()).add(verdict === 'right' ? 'right' : 'wrong'));
    }
    for (const type of graders.types)
      expect([...(seen.get(type) ?? [])].sort(), type).toEqual(['right', 'wrong']);
  });

  it('the grader errors shown are the ones a bad file gives', () => {
    const bad = [
      '# open items with three mistakes',
      '- id: order-id',
      '  prompt: "Order number?"',
      '  grader: {type: regex, pattern: "ORD-(\\\\d+"}',
      '- id: invoice',
      '  prompt: "Invoice as JSON?"',
      '  grader: {type: json, schema: {type: object, propertes: {total: {type: number}}}}',
      '- id: label',
      '  prompt: "Label it: billing or shipping."',
      '  expected: refunds',
      '  grader: {type: label, labels: [billing, shipping]}',
    ].join('\n');
    let error: unknown;
    try {
      parseItems(bad, 'items.yml');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(InputError);
    const shown = blocks(page, '').find((b) => b.includes('3 invalid items')) ?? '';
    expect(shown).toBe(`${formatGateError(error as InputError)}\n`);
  });
});

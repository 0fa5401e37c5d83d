/**
 * docs/items.md: its example file loads with the documented meaning of each field, the YAML
 * shown in the page is that file, and the error shown is the one a bad file gives.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isChoiceItem, loadItemsFile, parseItems } from '../../src/checks/churn/items.js';
import { formatGateError, InputError } from '../../src/errors.js';

const page = readFileSync('docs/items.md', 'utf8');

/** The fenced blocks of a markdown page with the given info string, in order. */
function blocks(markdown: string, lang: string): string[] {
  const found: string[] = [];
  const fence = new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm');
  for (const match of markdown.matchAll(fence)) found.push(match[1] as string);
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
    expect(answerError).toBe('items.yml:1 (item "law-02"): unknown answer "E" (expected A–D)');
    expect(shown).toContain(answerError.replace('items.yml:1', 'items.yml:7'));
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

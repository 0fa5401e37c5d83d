/**
 * Each grader's options in words (report.html), for the items of docs/examples/open-items.yml:
 * one item per grader type, so every line below is read off that file by hand.
 */
import { describe, expect, it } from 'vitest';
import { loadItemsFile } from '../../src/checks/churn/items.js';
import type { OpenItem } from '../../src/checks/churn/openItems.js';
import { graders } from '../../src/graders/index.js';

const items = loadItemsFile('docs/examples/open-items.yml').items as OpenItem[];
const words = (id: string) => {
  const item = items.find((i) => i.id === id);
  if (!item) throw new Error(`no item ${id}`);
  return graders.explain(item.grader.spec);
};

describe('graders.explain', () => {
  it('says what each grader type checks, with the values the items file gives', () => {
    expect(words('refund-40-days')).toEqual([
      'the answer equals "no" (trimmed, Unicode NFC)',
      'case ignored; one final full stop ignored',
    ]);
    expect(words('opening-hours')).toEqual([
      'the answer contains every one of: "9"',
      'the answer contains at least one of: "am", "a.m.", "09:00"',
      'case ignored',
    ]);
    expect(words('return-reference')).toEqual([
      'the answer contains a match of /\\bRET-4471-[A-Z]{2}\\b/',
      'an answer it accepts: "RET-4471-AB"',
    ]);
    expect(words('invoice-total')).toEqual([
      'the first number in the answer is 89.75, within ± 0.01',
    ]);
    expect(words('invoice-json')).toEqual([
      'the whole answer is JSON (or one fenced code block holding it)',
      'valid against the schema {"type":"object","required":["number","total"],"properties":{"number":{"type":"integer"},"total":{"type":"number"}}}',
      'with the fields "number": 2041, "total": 1250',
    ]);
    expect(words('ticket-label')).toEqual([
      'the answer is the label "shipping", of "billing", "shipping", "returns"',
      'normalised: case, spaces, wrapping quotes or brackets and a final full stop ignored',
      'an answer none of the labels is wrong and counted off-label',
    ]);
    const module = words('order-parity');
    expect(module[0]).toBe('the module "graders/word.mjs" of the repository says right or wrong');
    expect(module[1]).toMatch(/^its file's SHA-256: [0-9a-f]{12}…$/);
    expect(module[2]).toBe('expected passed to it: "odd"');
    expect(words('tower')).toEqual([
      'every one of these 2 graders must accept the answer:',
      '1. contains: the answer contains every one of: "Eiffel"; case ignored',
      '2. regex: the answer contains a match of /18\\d\\d/',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import { fitMarkdown, MIN_ROWS } from '../../src/report/fit.js';
import { utf8Size } from '../../src/report/trim.js';
import { allTokens } from './gfm.js';

const POINTER = '[report.html](report.html)';

function itemTable(rows: number, prefix = 'q'): string {
  const body = Array.from({ length: rows }, (_, i) => `| ${prefix}${i} | law | 0.50 |`);
  return ['| item | domain | p |', '| :-- | :-- | --: |', ...body].join('\n');
}

describe('fitMarkdown', () => {
  it('returns text that fits unchanged', () => {
    const text = `### churn\n\n${itemTable(50)}\n`;
    expect(fitMarkdown(text, utf8Size(text), POINTER)).toBe(text);
  });

  it('cuts a long table to the rows that fit, with the count left out and the pointer', () => {
    const text = `### churn\n\nIntro.\n\n${itemTable(1000)}\n\nAfter the table.\n`;
    const out = fitMarkdown(text, 2000, POINTER);
    expect(utf8Size(out)).toBeLessThanOrEqual(2000);
    const kept = out.split('\n').filter((line) => /^\| q\d+ /.test(line)).length;
    expect(kept).toBeGreaterThan(MIN_ROWS);
    expect(out).toContain(
      `\n\n_… and ${(1000 - kept).toLocaleString('en-US')} more items — see ${POINTER}._\n\nAfter the table.\n`,
    );
    // The rows kept are the first ones, and one more would not have fitted.
    expect(out).toContain(`| q${kept - 1} |`);
    expect(out).not.toContain(`| q${kept} |`);
    expect(utf8Size(out) + utf8Size(`| q${kept} | law | 0.50 |\n`)).toBeGreaterThan(2000);
    // Still one table (header, delimiter, rows) followed by a paragraph.
    const tables = allTokens(out).filter((t) => t.type === 'table');
    expect(tables).toHaveLength(1);
  });

  it('cuts every long list to one length, so a short list keeps all its rows', () => {
    const text = [
      '### a',
      itemTable(6, 'short'),
      '### b',
      itemTable(500, 'x'),
      '### c',
      Array.from({ length: 400 }, (_, i) => `- warning ${i}`).join('\n'),
      '### d',
    ].join('\n\n');
    const out = fitMarkdown(text, 3000, POINTER);
    expect(utf8Size(out)).toBeLessThanOrEqual(3000);
    for (const heading of ['### a', '### b', '### c', '### d']) expect(out).toContain(heading);
    expect(out).toContain('| short5 |');
    const keptTable = out.split('\n').filter((line) => /^\| x\d+ /.test(line)).length;
    const keptList = out.split('\n').filter((line) => /^- warning /.test(line)).length;
    expect(keptTable).toBe(keptList);
    expect(out).toContain(`_… and ${500 - keptTable} more items — see`);
    expect(out).toContain(`_… and ${400 - keptList} more entries — see`);
  });

  it('names the rows after the first column when it is a word, else "rows"', () => {
    const games = [
      '| game | moves |',
      '| --- | --- |',
      ...Array.from({ length: 300 }, (_, i) => `| ${i} | 12 |`),
    ];
    const pairs = [
      '| baseline p | items |',
      '| --- | --- |',
      ...Array.from({ length: 300 }, (_, i) => `| ${i} | 12 |`),
    ];
    const out = fitMarkdown(`${games.join('\n')}\n\n${pairs.join('\n')}\n`, 600, POINTER);
    expect(out).toMatch(/more games — see/);
    expect(out).toMatch(/more rows — see/);
  });

  it('cuts tables inside collapsed blocks and leaves fenced code alone', () => {
    const fenced = ['```', ...Array.from({ length: 200 }, (_, i) => `| not a row ${i} |`), '```'];
    const text = [
      `<details><summary>Items changed (900)</summary>\n\n${itemTable(900)}\n\n</details>`,
      fenced.join('\n'),
    ].join('\n\n');
    const out = fitMarkdown(text, utf8Size(fenced.join('\n')) + 1200, POINTER);
    expect(out).toContain(fenced.join('\n'));
    expect(out).toMatch(/more items — see \[report\.html\]\(report\.html\)\._\n\n<\/details>/);
  });

  it('keeps at least the first rows of each list when even they do not fit', () => {
    const out = fitMarkdown(itemTable(1000), 10, POINTER);
    expect(out.split('\n').filter((line) => /^\| q\d+ /.test(line))).toHaveLength(MIN_ROWS);
    expect(out).toContain(`and ${(1000 - MIN_ROWS).toLocaleString('en-US')} more items`);
  });
});

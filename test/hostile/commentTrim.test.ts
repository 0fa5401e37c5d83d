/**
 * A candidate that fails hundreds of gate rules (one finding per broken domain, assistant or
 * series) must still tell the pull request which ones: the verdict table is cut between its
 * rows to fit GitHub's 65,536-character comment, never dropped whole, and the comment says
 * how many rows it left out. Before, the trimmer cut at paragraph boundaries and the whole
 * table is one paragraph: 209 failing rules left the header and a count.
 */
import { describe, expect, it } from 'vitest';
import type { GateFinding } from '../../src/checks/types.js';
import { COMMENT_LIMIT, commentBody, commentMarker } from '../../src/github/comment.js';
import { renderSummary } from '../../src/report/summary.js';
import { trimMarkdown, utf8Size } from '../../src/report/trim.js';
import { constructedReport } from '../report/fixtures.js';

/** A realistic finding: a domain reversal message is about 300 characters. */
function failing(i: number): GateFinding {
  return {
    check: 'churn',
    rule: 'domain-reversal',
    severity: 'fail',
    message: `domain-${String(i).padStart(3, '0')}: 7 items reliably worse, 1 better, while overall accuracy rose 2.8 points; the McNemar test of the domain gives p = 0.0021 (Holm-adjusted 0.0093), below the 0.0125 this rule is allowed, and ${'the change holds across resamples '.repeat(3)}`,
    values: { domain: `domain-${i}`, deteriorated: 7, improved: 1 },
  };
}

const NOTICE = 'The full report is in the artifact of this run.';

describe('the PR comment of a run with 209 failing rules', () => {
  const findings = Array.from({ length: 209 }, (_, i) => failing(i));
  const markdown = renderSummary(constructedReport(findings));
  const body = commentBody(commentMarker('default'), markdown, NOTICE);
  const rows = body.split('\n').filter((line) => line.startsWith('| ❌ fail'));

  it('needs trimming: the untrimmed summary is over the limit', () => {
    expect(utf8Size(markdown)).toBeGreaterThan(COMMENT_LIMIT);
    expect(utf8Size(body)).toBeLessThanOrEqual(COMMENT_LIMIT);
  });

  it('keeps the verdict rows that fit, whole and in order', () => {
    // ~350 bytes a row: well over a hundred rows fit in 64 kB.
    expect(rows.length).toBeGreaterThan(150);
    rows.forEach((row, i) => {
      // Markdown escaping writes the hyphen as "\-".
      expect(row).toContain(`domain\\-${String(i).padStart(3, '0')}:`);
      expect(row.endsWith('|')).toBe(true);
    });
    // The table header stays above the rows.
    expect(body).toMatch(/\| +\| check \| rule +\| finding +\|\n\| -+ \| -+ \|/);
  });

  it('says how many rows it left out, and where the rest is', () => {
    const left = 209 - rows.length;
    // The table sits in a collapsed block below the first screen: cut there, by its lines.
    expect(body).toContain(`_… ${left} lines cut to fit; the full list is in the full report._`);
    expect(body.trimEnd().endsWith(NOTICE)).toBe(true);
  });
});

describe('a table cut by the trimmer', () => {
  const table = ['## verdict', '', '| a | b |', '| - | - |'];
  for (let i = 0; i < 40; i++) table.push(`| row ${i} | ${'x'.repeat(40)} |`);
  const text = `${table.join('\n')}\n\nafter the table\n`;

  it('keeps its header and separator with at least one row', () => {
    const out = trimMarkdown(text, 600, 'cut');
    const kept = out.split('\n').filter((l) => l.startsWith('| row'));
    expect(kept.length).toBeGreaterThan(0);
    expect(out).toContain('| a | b |\n| - | - |\n| row 0 |');
    expect(out).toContain(`_… ${40 - kept.length} more rows of this table left out`);
    expect(utf8Size(out)).toBeLessThanOrEqual(600);
  });

  it('is cut before it, as a paragraph, when not even one row would fit', () => {
    const out = trimMarkdown(text, 140, 'cut');
    expect(out).not.toContain('| a | b |');
    expect(out).toContain('## verdict');
  });
});

/**
 * summary.md of a large suite within GitHub's limits: 50,000 churn items and every check.
 * Rendered as it is, this report's summary takes about 1.1 MB, over the 1 MiB a job summary
 * may take; the summary cuts its long lists instead, keeping every check's section.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, commentBody, commentMarker } from '../../src/github/comment.js';
import { JOB_SUMMARY_LIMIT } from '../../src/github/summary.js';
import { renderSummary } from '../../src/report/summary.js';
import { utf8Size } from '../../src/report/trim.js';
import { largeReport } from '../support/largeReport.js';

const report = largeReport(50_000);
const HEADINGS = [
  '## ❌ model-gate verdict: fail',
  '### churn — item-level reliable change',
  '### dragon — calibration of stated confidence',
  '### personas — can each assistant be told apart from its answers?',
  '<details><summary>Measurement provenance</summary>',
];

/** The item rows of a "changed by method" block and the count its cut line gives. */
function changedBlock(markdown: string, method: 'A' | 'B'): { rows: number; more: number } {
  const at = markdown.indexOf(`<details><summary>Items changed by method ${method} (5000)`);
  expect(at, `the block of method ${method}`).toBeGreaterThanOrEqual(0);
  const block = markdown.slice(at, markdown.indexOf('</details>', at));
  const rows = block.split('\n').filter((line) => /^\| item\\-\d/.test(line)).length;
  const more = /_… and ([\d,]+) more items — see \[report\\\.html\]\(report\.html\)\._/.exec(block);
  return { rows, more: more ? Number(more[1]?.replace(/,/g, '')) : 0 };
}

describe('summary.md of 50,000 items and every check', () => {
  it('fits the job summary (1 MiB) with every section, its long lists cut with a count', () => {
    const markdown = renderSummary(report);
    expect(utf8Size(markdown)).toBeLessThanOrEqual(JOB_SUMMARY_LIMIT);
    for (const heading of HEADINGS) expect(markdown).toContain(heading);
    for (const method of ['A', 'B'] as const) {
      const { rows, more } = changedBlock(markdown, method);
      expect(more).toBeGreaterThan(0);
      expect(rows + more).toBe(5000);
    }
    // Cut to fit, not beyond: the lists keep hundreds of rows, and nothing was cut at a section.
    expect(changedBlock(markdown, 'B').rows).toBeGreaterThan(1000);
    expect(markdown).not.toContain('This summary was cut to fit its size limit');
  });

  it('fits a PR comment (65,536 characters) with every section and its marker', () => {
    const body = commentBody(
      commentMarker('default'),
      (limit) => renderSummary(report, { limit }),
      'Cut to fit.',
    );
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.startsWith('<!-- model-gate:default -->\n')).toBe(true);
    for (const heading of HEADINGS) expect(body).toContain(heading);
    const { rows, more } = changedBlock(body, 'B');
    expect(rows).toBeGreaterThanOrEqual(3);
    expect(rows + more).toBe(5000);
    expect(body).not.toContain('Cut to fit.');
  });
});

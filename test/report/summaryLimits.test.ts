/**
 * summary.md of a large suite within GitHub's limits: 50,000 churn items and every check.
 * The summary leaves the item lists to report.html and keeps every check's section.
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
  '<details><summary>churn — item-level reliable change</summary>',
  '<details><summary>dragon — calibration of stated confidence</summary>',
  '<details><summary>personas — can each assistant be told apart from its answers?</summary>',
  '<details><summary>Measurement provenance</summary>',
];

/** The item lists are report.html's: the summary names them and shows none of their rows. */
function expectListsLeftToThePage(markdown: string): void {
  expect(markdown).toContain('Items changed by method B \\(5000\\)');
  expect(markdown).toContain('Items changed by method A \\(5000\\)');
  expect(markdown).not.toContain('<details><summary>Items changed by method');
  // The top deteriorations stay: at most a handful of item rows.
  const itemRows = markdown.split('\n').filter((line) => /^\| item\\-\d/.test(line)).length;
  expect(itemRows).toBeLessThanOrEqual(10);
}

describe('summary.md of 50,000 items and every check', () => {
  it('fits the job summary (1 MiB) with every section, the item lists left to report.html', () => {
    const markdown = renderSummary(report);
    expect(utf8Size(markdown)).toBeLessThanOrEqual(JOB_SUMMARY_LIMIT);
    for (const heading of HEADINGS) expect(markdown).toContain(heading);
    expectListsLeftToThePage(markdown);
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
    expectListsLeftToThePage(body);
    expect(body).not.toContain('Cut to fit.');
  });
});

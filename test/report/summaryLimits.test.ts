/**
 * summary.md of a large suite within GitHub's limits: 50,000 churn items and every check.
 * The summary leaves the item lists to report.html and keeps every check's section.
 */
import { describe, expect, it } from 'vitest';
import { COMMENT_LIMIT, commentBody, commentMarker } from '../../src/github/comment.js';
import { JOB_SUMMARY_LIMIT } from '../../src/github/summary.js';
import { FIRST_SCREEN_LINES, FIRST_SCREEN_WIDTH, renderSummary } from '../../src/report/summary.js';
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

describe('summary.md of a 3,600-item suite', () => {
  const suite = largeReport(3_600);
  const markdown = renderSummary(suite);

  it('opens with the verdict and one short line per failing or warning finding, in 15 lines', () => {
    const lines = markdown.split('\n');
    // The first screen is what comes before the first collapsed section.
    const screen = lines.slice(
      0,
      lines.findIndex((line) => line.startsWith('<details>')),
    );
    expect(screen.length).toBeGreaterThan(0);
    expect(screen.length).toBeLessThanOrEqual(FIRST_SCREEN_LINES);
    for (const line of screen) expect([...line].length).toBeLessThanOrEqual(FIRST_SCREEN_WIDTH);
    expect(screen[0]).toBe('## ❌ model-gate verdict: fail');
    const text = screen.join('\n');
    const shown = suite.verdict.reasons.filter((r) => r.severity !== 'info');
    expect(shown.length).toBeGreaterThan(0);
    for (const reason of shown) expect(text).toContain(`${reason.check} \`${reason.rule}\`: `);
    expect(text).toContain('[report\\.html](report.html)');
  });

  it('names the test behind every "significant"', () => {
    const lines = markdown.split('\n').filter((l) => /significan/i.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(line).toMatch(/exact test|Fisher|permutation|t interval|interval over items/);
    }
  });

  it('stays within 18 kB and keeps every finding', () => {
    expect(utf8Size(markdown)).toBeLessThanOrEqual(18_000);
    for (const reason of suite.verdict.reasons) expect(markdown).toContain(`\`${reason.rule}\``);
  });
});

/**
 * The demo's summary.md as a reviewer meets it: the verdict, one short line per failing or
 * warning finding and the link to report.html within the first 15 lines, the whole page small,
 * every finding still on it, and every "significant" naming the test that says so.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIRST_SCREEN_LINES, FIRST_SCREEN_WIDTH, shortLine } from '../../src/report/summary.js';
import { utf8Size } from '../../src/report/trim.js';
import { type SharedDemo, sharedDemo } from '../support/sharedDemo.js';

/** Words that name a test; a line saying "significant" must hold one of them. */
const TEST_NAMES = /exact test|Fisher|permutation|t interval|interval over items/;

describe('the demo summary, first screen and size', () => {
  let outcome: SharedDemo;
  let summary: string;
  beforeAll(async () => {
    outcome = await sharedDemo();
    summary = readFileSync(path.join(outcome.dir, 'summary.md'), 'utf8');
  }, 200_000);

  it('says the verdict, each failing or warning rule and where report.html is in 15 short lines', () => {
    expect(FIRST_SCREEN_LINES).toBe(15);
    const screen = summary.split('\n').slice(0, FIRST_SCREEN_LINES);
    for (const line of screen) expect([...line].length).toBeLessThanOrEqual(FIRST_SCREEN_WIDTH);
    const text = screen.join('\n');
    expect(screen[0]).toBe('## ❌ model-gate verdict: fail');
    expect(text).toContain('[report\\.html](report.html)');
    const shown = outcome.report.verdict.reasons.filter((r) => r.severity !== 'info');
    expect(shown.length).toBe(8);
    for (const f of shown) expect(text).toContain(`${f.check} \`${f.rule}\`: `);
    // The collapsed part starts right after it.
    expect(summary.split('\n')[FIRST_SCREEN_LINES - 1]).toMatch(/^(<details>|$)/);
  });

  it('stays within 21.5 kB and keeps every finding in full', () => {
    // About 18 kB for churn, dragon and personas; speed's section and rules add 3 kB.
    expect(utf8Size(summary)).toBeLessThanOrEqual(21_500);
    for (const f of outcome.report.verdict.reasons) {
      expect(summary).toContain(`\`${f.rule}\``);
      // The full sentence's numbers are there, escaped as markdown.
      const firstNumber = /\d+\.\d+/.exec(f.message)?.[0];
      if (firstNumber) expect(summary).toContain(firstNumber.replace('.', '\\.'));
    }
  });

  it('names the test behind every "significant"', () => {
    const lines = summary.split('\n').filter((l) => /significan/i.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(TEST_NAMES);
  });

  it('shows the overall change in the exact test first, the t interval as a generalisation', () => {
    expect(summary).toMatch(
      /\*\*Δ accuracy [+−][\d.]+ pts\*\* on these items, significantly up by the exact test of these items' sampling noise \(one-sided p = [\d.e−]+ ≤ 0\.025\); if these items were a sample of a larger pool, the change there would lie in \[.+\] \(95% t interval over 75 items\)\./,
    );
  });
});

describe('shortLine', () => {
  it('keeps what, how much and the limit, leaving the test and its numbers to the full finding', () => {
    expect(
      shortLine(
        'law: accuracy fell 58.7 points (net loss over 15 items, exact test p = 8.3e−31), at or above the limit of 5 points',
      ),
    ).toBe('law: accuracy fell 58.7 points, at or above the limit of 5 points');
    expect(
      shortLine(
        'm walks into walls more often: 33.3% against 0.0% (+33.3 points, 95% paired interval [+22.3 points, +40.4 points]; warning above +10.0 points).',
      ),
    ).toBe('m walks into walls more often: 33.3% against 0.0%; warning above +10.0 points.');
    expect(shortLine('a b c d e f g h', 8)).toBe('a b c …');
  });
});

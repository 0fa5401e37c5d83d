/**
 * The safety net of a change to the analysis: each golden case (test/fixtures/golden/, logs
 * written by a release) is analysed by the code under test, and its exit code and report.json
 * must equal what that release's `analyze` wrote, field by field (test/support/compareReports.ts
 * says what "equal" allows). A failure lists each differing field's path and both values.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compareReports, formatDifferences } from '../support/compareReports.js';
import { analyseGoldenCase, GOLDEN_ROOT, goldenCases } from '../support/goldenCase.js';

const cases = goldenCases();

describe('golden logs of the release', () => {
  it('are all there', () => {
    expect(cases).toEqual([
      'aa',
      'churn-aa',
      'churn-adaptive',
      'churn-demo',
      'churn-invalid',
      'churn-logprobs',
      'churn-rci',
      'demo',
      'faults',
      'generated',
      'open-items',
      'remeasured',
      'resumed',
      'shards',
      'shared-gpu',
    ]);
  });

  it.each(cases)('%s: the same exit code and report', async (name) => {
    const dir = path.join(GOLDEN_ROOT, name);
    const expected = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as unknown;
    const { exitCode: expectedExit } = JSON.parse(
      readFileSync(path.join(dir, 'exit.json'), 'utf8'),
    ) as { exitCode: number };
    const { exitCode, report } = await analyseGoldenCase(dir);
    const differences = compareReports(expected, report);
    if (differences.length > 0)
      expect.fail(
        `${name}: ${differences.length} field(s) differ from the release's report\n${formatDifferences(differences)}`,
      );
    expect(exitCode, `${name}: exit code`).toBe(expectedExit);
  });
});

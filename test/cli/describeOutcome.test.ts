/** The closing lines the CLI prints after a run: the verdict, its reasons, the files. */
import { gateOutcome } from '../../src/report/verdict.js';
import { describe, expect, it } from 'vitest';
import { describeOutcome } from '../../src/cli/handlers.js';
import { ExitCode } from '../../src/errors.js';
import { constructedReport } from '../report/fixtures.js';

const files = {
  dir: 'out',
  report: 'out/report.json',
  summary: 'out/summary.md',
  charts: ['out/churn-domains.svg'],
  logs: ['out/samples.jsonl'],
};

describe('describeOutcome', () => {
  it('aligns the reasons on the longest severity listed, without the info findings', () => {
    const report = constructedReport([
      { check: 'churn', rule: 'domain-reversal', severity: 'fail', message: 'law got worse' },
      { check: 'dragon', rule: 'known-wall-repeats', severity: 'warn', message: 'walls again' },
      { check: 'churn', rule: 'max-deteriorated', severity: 'info', message: 'within the limit' },
    ]);
    const text = describeOutcome({
      report,
      files,
      exitCode: ExitCode.regression,
      decision: gateOutcome('fail', 'regression'),
      cancelled: false,
    });
    // "fail" and "warn" are both 4 letters: two spaces, then the check.
    expect(text.split('\n').slice(1, 4)).toEqual([
      'verdict: FAIL',
      '  fail  churn: law got worse',
      '  warn  dragon: walls again',
    ]);
    expect(text).not.toContain('within the limit');
    expect(text).toContain('charts:  churn-domains.svg (in out)');
  });

  it('pads shorter severities when an inconclusive one is listed', () => {
    const report = constructedReport([
      { check: 'dragon', rule: 'timeouts', severity: 'inconclusive', message: '9% timed out' },
      { check: 'personas', rule: 'accuracy-drop', severity: 'warn', message: 'accuracy fell' },
    ]);
    const text = describeOutcome({
      report,
      files,
      exitCode: ExitCode.infrastructure,
      decision: gateOutcome('inconclusive', 'regression'),
      cancelled: false,
    });
    expect(text).toContain('  inconclusive  dragon: 9% timed out');
    expect(text).toContain(`  warn${' '.repeat(8)}  personas: accuracy fell`);
  });
});

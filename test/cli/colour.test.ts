import { gateOutcome } from '../../src/report/verdict.js';
import { describe, expect, it } from 'vitest';
import { ansi, plain, wantsColour } from '../../src/cli/colour.js';
import { describeOutcome } from '../../src/cli/handlers.js';
import { ExitCode } from '../../src/errors.js';
import { constructedReport } from '../report/fixtures.js';

const files = {
  dir: 'out',
  report: 'out/report.json',
  summary: 'out/summary.md',
  charts: [],
  logs: ['out/samples.jsonl'],
};

describe('colour on a terminal', () => {
  it('only on a TTY, and never when NO_COLOR is set to anything', () => {
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '1' })).toBe(false);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: 'false' })).toBe(false);
    // An empty NO_COLOR does not count (no-color.org).
    expect(wantsColour({ isTTY: true }, { NO_COLOR: '' })).toBe(true);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    expect(wantsColour({}, {})).toBe(false);
  });

  it('paints the verdict and each severity, keeping the alignment of the plain text', () => {
    const report = constructedReport([
      { check: 'churn', rule: 'domain-reversal', severity: 'fail', message: 'law got worse' },
      { check: 'dragon', rule: 'ece', severity: 'inconclusive', message: 'timeouts' },
    ]);
    const outcome = {
      report,
      files,
      exitCode: ExitCode.regression,
      decision: gateOutcome('fail', 'regression'),
      cancelled: false,
    };
    const coloured = describeOutcome(outcome, ansi);
    expect(coloured).toContain('verdict: \x1b[1;31mFAIL\x1b[0m');
    expect(coloured).toContain('  \x1b[1;31mfail\x1b[0m          churn: law got worse');
    // Without the escape codes it is exactly the plain text.
    const stripped = coloured.replace(new RegExp(`${String.fromCharCode(27)}\\[[\\d;]*m`, 'g'), '');
    expect(stripped).toBe(describeOutcome(outcome, plain));
    expect(describeOutcome(outcome)).not.toContain('\x1b[');
  });
});

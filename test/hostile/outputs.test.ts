import { describe, expect, it } from 'vitest';
import { actionOutputs } from '../../src/github/outputs.js';
import { constructedReport } from '../report/fixtures.js';

describe('action outputs from hostile domain names', () => {
  it('carry no control or bidi character and no line break', () => {
    const report = constructedReport();
    report.headline.reversals = ['law\u202E,x', 'a\x1b[2J\nb', 'y'.repeat(5000)];
    const { reversals } = actionOutputs(report, { report: 'r', summary: 's' }, null);
    expect(reversals).toBe(`law\\u202E x,a\\u001B[2J b,${'y'.repeat(199)}…`);
  });
});

import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import type { GateFinding, Severity } from '../../src/checks/types.js';
import type { CheckName } from '../../src/config/schema.js';
import { decideVerdict, gateOutcome } from '../../src/report/verdict.js';

function finding(check: CheckName, severity: Severity, rule = `${check}-${severity}`): GateFinding {
  return { check, rule, severity, message: `${check} ${severity}` };
}

describe('decideVerdict', () => {
  it('is pass with no findings, and with info findings only', () => {
    expect(decideVerdict([], CHECKS)).toEqual({ status: 'pass', reasons: [], suppressed: [] });
    expect(decideVerdict([finding('dragon', 'info')], CHECKS).status).toBe('pass');
  });

  it('takes the most severe level: fail > inconclusive > warn > pass', () => {
    expect(decideVerdict([finding('churn', 'warn')], CHECKS).status).toBe('warn');
    expect(
      decideVerdict([finding('churn', 'warn'), finding('dragon', 'inconclusive')], CHECKS).status,
    ).toBe('inconclusive');
    expect(
      decideVerdict(
        [finding('churn', 'warn'), finding('dragon', 'inconclusive'), finding('personas', 'fail')],
        CHECKS,
      ).status,
    ).toBe('fail');
  });

  it('orders reasons fail, inconclusive, warn, info; then by check; then as given', () => {
    const verdict = decideVerdict(
      [
        finding('personas', 'info'),
        finding('personas', 'warn', 'second-warn'),
        finding('dragon', 'warn'),
        finding('personas', 'fail'),
        finding('personas', 'warn', 'first-warn'),
        finding('churn', 'info'),
        finding('dragon', 'fail'),
      ],
      CHECKS,
    );
    expect(verdict.reasons.map((r) => `${r.severity}:${r.rule}`)).toEqual([
      'fail:dragon-fail',
      'fail:personas-fail',
      'warn:dragon-warn',
      'warn:second-warn',
      'warn:first-warn',
      'info:churn-info',
      'info:personas-info',
    ]);
  });

  it('an inconclusive check claims no regression: its fail and warn findings are set aside', () => {
    const verdict = decideVerdict(
      [
        finding('churn', 'fail', 'max-deteriorated'),
        finding('churn', 'warn', 'aggregate-below-zero'),
        finding('churn', 'inconclusive', 'timeouts'),
        finding('churn', 'info', 'null-calibration'),
      ],
      CHECKS,
    );
    expect(verdict.status).toBe('inconclusive');
    expect(verdict.reasons.map((r) => r.rule)).toEqual(['timeouts', 'null-calibration']);
    expect(verdict.suppressed.map((r) => r.rule)).toEqual([
      'max-deteriorated',
      'aggregate-below-zero',
    ]);
  });

  it('a regression measured by another, healthy check still fails the run', () => {
    const verdict = decideVerdict(
      [finding('churn', 'inconclusive'), finding('churn', 'fail'), finding('dragon', 'fail')],
      CHECKS,
    );
    expect(verdict.status).toBe('fail');
    expect(verdict.reasons.map((r) => `${r.check}:${r.severity}`)).toEqual([
      'dragon:fail',
      'churn:inconclusive',
    ]);
    expect(verdict.suppressed.map((r) => `${r.check}:${r.severity}`)).toEqual(['churn:fail']);
  });
});

describe('gateOutcome', () => {
  it('maps verdict and fail-on to the job state and the CLI exit code', () => {
    const table = (['pass', 'warn', 'fail', 'inconclusive'] as const).map((status) => [
      status,
      ...(['never', 'regression', 'inconclusive'] as const).map((failOn) => {
        const o = gateOutcome(status, failOn);
        return `${o.failed ? 'failed' : 'ok'}/${o.exitCode}`;
      }),
    ]);
    expect(table).toEqual([
      // status          never    regression   inconclusive
      ['pass', 'ok/0', 'ok/0', 'ok/0'],
      ['warn', 'ok/0', 'ok/0', 'ok/0'],
      ['fail', 'ok/0', 'failed/1', 'failed/1'],
      // The CLI exits 3 on inconclusive whatever fail-on says (except never); the step fails
      // only when fail-on asks for it.
      ['inconclusive', 'ok/0', 'ok/3', 'failed/3'],
    ]);
    expect(gateOutcome('fail', 'never').message).toMatch(/not failing: fail-on is never/);
  });

  it('a measured shard neither passes nor fails; an unmeasured one is inconclusive', () => {
    const shard = (
      status: 'pass' | 'fail' | 'inconclusive',
      failOn: 'regression' | 'inconclusive',
    ) => gateOutcome(status, failOn, { shard: '1/2' });
    expect(shard('fail', 'regression')).toMatchObject({ failed: false, exitCode: 0 });
    expect(shard('fail', 'regression').message).toContain('shard 1/2 measured');
    expect(shard('pass', 'inconclusive')).toMatchObject({ failed: false, exitCode: 0 });
    expect(shard('inconclusive', 'regression')).toMatchObject({ failed: false, exitCode: 3 });
    expect(shard('inconclusive', 'inconclusive')).toMatchObject({ failed: true, exitCode: 3 });
  });

  it('an interrupted run fails the step unless fail-on is never', () => {
    expect(gateOutcome('inconclusive', 'regression', { interrupted: true })).toMatchObject({
      failed: true,
      exitCode: 3,
    });
    expect(gateOutcome('inconclusive', 'never', { interrupted: true })).toMatchObject({
      failed: false,
      exitCode: 0,
    });
  });
});

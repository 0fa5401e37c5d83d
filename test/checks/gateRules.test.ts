import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { checkFalseAlarmBudget, type GateRuleCard } from '../../src/checks/types.js';
import { loadConfig } from '../../src/config/load.js';
import { evaluateRules } from '../../src/pipeline/checks.js';

const card = (rule: string): GateRuleCard => ({
  check: 'churn',
  rule,
  tests: 'a domain loses accuracy',
  falseAlarmRate: 0.01,
  falseAlarmBasis: 'design level',
  detects: 'a domain of 60 items by 12 points',
});

describe('gate rules as tests', () => {
  it('takes each rule’s most severe finding as its outcome, pass when it has none', () => {
    const rules = evaluateRules(
      [card('domain-loss'), card('max-deteriorated'), card('domain-reversal')],
      [
        { check: 'churn', rule: 'domain-loss', severity: 'warn', message: 'law −12 pts' },
        { check: 'churn', rule: 'domain-loss', severity: 'fail', message: 'law −31 pts' },
        { check: 'churn', rule: 'domain-reversal', severity: 'info', message: 'none' },
        { check: 'personas', rule: 'max-deteriorated', severity: 'fail', message: 'other check' },
      ],
    );
    expect(rules.map((r) => r.outcome)).toEqual(['fail', 'pass', 'pass']);
  });

  it('splits the false-alarm budget equally between the selected checks', () => {
    const models = [
      { path: ['models', 'baseline'], value: 'a', source: 'flag --baseline' },
      { path: ['models', 'candidate'], value: 'b', source: 'flag --candidate' },
    ];
    const three = loadConfig({ checks: CHECKS, file: null, overrides: models });
    expect(checkFalseAlarmBudget(three.config)).toBeCloseTo(0.05 / 3, 15);
    const one = loadConfig({
      checks: CHECKS,
      file: null,
      overrides: [
        ...models,
        { path: ['checks'], value: ['churn'], source: 'flag --checks' },
        { path: ['falseAlarmRate'], value: 0.1, source: 'test' },
      ],
    });
    expect(checkFalseAlarmBudget(one.config)).toBeCloseTo(0.1, 15);
  });
});

/**
 * The dragon check's nightly rule, ece-drift: does the ECE of the last nights trend upward
 * (drift.ts)? Its level is its part of the check's share of the false-alarm budget
 * (rules.ts); its window and limit are the config's `history:` settings.
 */
import { DRIFT_DEFAULTS, type DriftSettings } from '../../config/history.js';
import type { DragonConfig } from './settings.js';
import { num, percent, signed } from '../../text/format.js';
import type { EvaluatedGateRule, GateFinding } from '../findings.js';
import type { NightlyRule } from '../nightlyRule.js';
import { analyseDrift, DETECTION_POWER, type DriftAnalysis } from './drift.js';
import { driftChart } from './report/driftChart.js';
import type { DragonNight } from './report/numbers.js';
import { driftFalseAlarmRate } from './rules.js';

export const eceDriftRule: NightlyRule<DriftAnalysis, DragonNight, DragonConfig> = {
  key: 'drift',
  measured: (night) => night.ece !== null,
  analyse: (nights, config) =>
    analyseDrift(
      nights.map((night) => night.ece),
      driftSettings(config),
    ),
  finding: driftFinding,
  card: driftRule,
  sentence: (d) =>
    d.window === 0
      ? `Drift rule: ${d.available} of the ${d.required} nights it needs.`
      : `ECE drift over the last ${d.window} nights: ${signed(d.rise ?? 0)} (limit ${signed(d.maxRise)})${d.fired ? ': the rule failed' : ''}.`,
  chart: driftChart,
};

function driftSettings(config: DragonConfig): DriftSettings {
  return {
    ...DRIFT_DEFAULTS,
    nights: config.history.driftNights,
    maxRise: config.history.maxEceRise,
    alpha: driftFalseAlarmRate(config),
  };
}

/** The rule as a test: its false-alarm rate and the smallest rise it detects. */
function driftRule(d: DriftAnalysis): EvaluatedGateRule {
  const tests = `ECE of the last ${d.required} nights trends up: one-sided slope test (α ${num(d.alpha, 4)}, its part of the dragon check's share of the false-alarm budget) and a rise above ${signed(d.maxRise)}`;
  const card = { check: 'dragon' as const, rule: 'ece-drift', tests };
  if (d.falseAlarmRate === null) {
    return {
      ...card,
      falseAlarmRate: 0,
      falseAlarmBasis: `not tested yet: ${d.available} of ${d.required} nights in the history`,
      detects: '–',
      outcome: 'not-evaluated',
    };
  }
  return {
    ...card,
    falseAlarmRate: d.falseAlarmRate,
    falseAlarmBasis: `simulated: ${d.replicates} windows of ${d.window} nights without change, each night's noise from its interval`,
    detects:
      d.smallestDetectedRise === null
        ? 'no rise below 1'
        : `a rise of ECE by ${signed(d.smallestDetectedRise)} across ${d.window} nights`,
    outcome: d.fired ? 'fail' : 'pass',
  };
}

/** The rule as a sentence, with its false-alarm rate and the smallest rise it detects. */
function driftFinding(d: DriftAnalysis): GateFinding {
  if (d.window === 0 || d.slope === null || d.z === null || d.rise === null) {
    return {
      check: 'dragon',
      rule: 'ece-drift',
      severity: 'info',
      message: `ECE trend: ${d.available} of the ${d.required} nights the drift rule needs are in the history; no trend tested yet.`,
      values: { nights: d.available, required: d.required },
    };
  }
  const rates =
    d.falseAlarmRate === null
      ? ''
      : ` False-alarm rate with these nights' noise: ${d.falseAlarmRate === 0 ? `below ${percent(1 / d.replicates)}` : percent(d.falseAlarmRate)} per night (${d.replicates} simulated windows without change); smallest rise detected ${Math.round(DETECTION_POWER * 100)}% of the time: ${d.smallestDetectedRise === null ? 'none below 1' : signed(d.smallestDetectedRise)}.`;
  const trend = `ECE over the last ${d.window} nights: ${signed(d.slope)} per night, ${signed(d.rise)} across the window (z = ${num(d.z, 2)}; fails above z ${num(d.zCritical, 2)} and a rise of ${signed(d.maxRise)})`;
  return {
    check: 'dragon',
    rule: 'ece-drift',
    severity: d.fired ? 'fail' : 'info',
    message: `${d.fired ? 'Calibration is drifting' : 'No calibration drift'}: ${trend}.${rates}`,
    values: {
      nights: d.window,
      slope: d.slope,
      rise: d.rise,
      z: d.z,
      maxRise: d.maxRise,
      alpha: d.alpha,
      falseAlarmRate: d.falseAlarmRate,
      smallestDetectedRise: d.smallestDetectedRise,
    },
  };
}

/**
 * The speed check in nightly runs (one model): the night's median decode rate and GPU memory
 * on its history line, and rule decode-drop: tonight's median decode rate more than
 * `speed.gate.max-decode-drop` below the median of the previous nights (the last
 * `history.drift-nights` with a rate). The median of the nights, not their trend: a driver or
 * server update slows every night after it at once, and one odd night moves a median little.
 */
import { z } from 'zod';
import { field, finiteOrNull } from '../../render/json.js';
import { quantile } from '../../stats/quantile.js';
import { percent, trimmed } from '../../text/format.js';
import type { EvaluatedGateRule, GateFinding } from '../findings.js';
import type { NightlyFields } from '../nightly.js';
import type { NightlyRule } from '../nightlyRule.js';
import { type DecodeDropAnalysis, decodeTrendChart, type SpeedNight } from './nightlyChart.js';
import type { SpeedConfig } from './settings.js';

const positive = z.number().positive().nullable().optional();

export const speedNightly: NightlyFields<SpeedNight> = {
  schema: { decodeTokensPerSecond: positive, vramMib: positive },
  // A night without the check writes no speed number: its line reads as before the check.
  empty: {},
  columns: [
    { header: 'decode tokens/s', cell: (v) => trimmed(v.decodeTokensPerSecond ?? null, 1) },
    { header: 'GPU MiB', cell: (v) => trimmed(v.vramMib ?? null, 0) },
  ],
  read: (section) => {
    if (field(section, 'check') !== 'speed') return {};
    const model = field(section, 'models', '0');
    return {
      decodeTokensPerSecond: finiteOrNull(field(model, 'decodeTokensPerSecond', 'median')),
      vramMib: finiteOrNull(field(model, 'residency', 'vramMib')),
    };
  },
};

/** Previous nights with a rate the rule needs before it compares: fewer give no median. */
export const MIN_PREVIOUS_NIGHTS = 3;

export function analyseDecodeDrop(
  nights: readonly SpeedNight[],
  maxDrop: number,
  window: number,
): DecodeDropAnalysis {
  const rate = (night: SpeedNight | undefined) => night?.decodeTokensPerSecond ?? null;
  const tonight = rate(nights.at(-1));
  const previous = nights
    .slice(0, -1)
    .map(rate)
    .filter((r): r is number => r !== null)
    .slice(-window);
  const median = previous.length >= MIN_PREVIOUS_NIGHTS ? quantile(previous, 0.5) : null;
  const drop = tonight !== null && median !== null ? 1 - tonight / median : null;
  return {
    tonight,
    median,
    nights: previous.length,
    required: MIN_PREVIOUS_NIGHTS,
    maxDrop,
    drop,
    fired: drop !== null && drop > maxDrop,
  };
}

/** Tonight against the median: "28.0% below". */
const against = (drop: number) => `${percent(Math.abs(drop), 1)} ${drop >= 0 ? 'below' : 'above'}`;

const limitText = (a: DecodeDropAnalysis) =>
  `more than ${percent(a.maxDrop, 0)} below the median of the previous nights`;

export const decodeDropRule: NightlyRule<DecodeDropAnalysis, SpeedNight, SpeedConfig> = {
  key: 'decodeDrop',
  measured: (night) => (night.decodeTokensPerSecond ?? null) !== null,
  analyse: (nights, config) =>
    analyseDecodeDrop(nights, config.speed.gate.maxDecodeDrop, config.history.driftNights),
  finding: decodeDropFinding,
  card: decodeDropCard,
  chart: decodeTrendChart,
  sentence: (a) =>
    a.drop === null
      ? `Decode rate: ${a.nights} of the ${a.required} previous nights with a rate the rule needs.`
      : `Decode rate tonight ${trimmed(a.tonight, 1)} tokens/s, ${against(a.drop)} the median of the previous ${a.nights} nights (${trimmed(a.median, 1)}; fails ${limitText(a)})${a.fired ? ': the rule failed' : ''}.`,
};

function decodeDropFinding(a: DecodeDropAnalysis): GateFinding {
  if (a.drop === null || a.median === null) {
    return {
      check: 'speed',
      rule: 'decode-drop',
      severity: 'info',
      message: `Decode rate: ${a.nights} of the ${a.required} previous nights with a rate the rule needs are in the history; not compared yet.`,
      values: { nights: a.nights, required: a.required },
    };
  }
  return {
    check: 'speed',
    rule: 'decode-drop',
    severity: a.fired ? 'fail' : 'info',
    message: `${a.fired ? 'Decoding slowed' : 'Decode rate steady'}: ${trimmed(a.tonight, 1)} tokens/s tonight, ${against(a.drop)} ${trimmed(a.median, 1)}, the median of the previous ${a.nights} nights (fails ${limitText(a)}, speed.gate.max-decode-drop).`,
    values: {
      tonight: a.tonight,
      median: a.median,
      nights: a.nights,
      drop: a.drop,
      maxDrop: a.maxDrop,
    },
  };
}

function decodeDropCard(a: DecodeDropAnalysis): EvaluatedGateRule {
  return {
    check: 'speed',
    rule: 'decode-drop',
    tests: `tonight's median decode tokens/s ${limitText(a)} with a rate (${a.nights} of them, at most history.drift-nights)`,
    // A limit on medians, not a test: the median of a night's answers moves by a few percent
    // with per-request noise, far less than the limit; a GPU shared or throttled that night can
    // still trip it, and the run reports that contention.
    falseAlarmRate: 0,
    falseAlarmBasis:
      a.median === null
        ? `not compared yet: ${a.nights} of ${a.required} previous nights in the history`
        : "a limit on the nights' medians, whose sampling error is a few percent",
    detects: `a drop of the decode rate by more than ${percent(a.maxDrop, 0)}`,
    outcome: a.median === null ? 'not-evaluated' : a.fired ? 'fail' : 'pass',
  };
}

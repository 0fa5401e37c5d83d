/**
 * The `history` part of report.json (nightly runs with `output.history`): the last nights of
 * the model, where it was re-pulled, and the drift rule. Pure: the nights come in, the
 * section and the rule's finding go out.
 */
import { nightlyShape } from '../checks/registry.js';
import type { EvaluatedGateRule, GateFinding } from '../checks/types.js';
import { type DriftAnalysis, analyseDrift, DETECTION_POWER } from './drift.js';
import { type HistoryEntry, oneLinePerNight } from './entry.js';
import { DRIFT_DEFAULTS, type HistorySettings } from '../config/history.js';
import { num, percent, signed } from '../text/format.js';

export interface HistoryNight extends HistoryEntry {
  /** The digest differs from the previous night's: the tag now names other weights. */
  rePulled: boolean;
}

export interface HistorySection {
  /** File name of the history (output.history). */
  file: string;
  model: string;
  /** Nights of this model, oldest first, tonight last; the last `show` of them. */
  nights: HistoryNight[];
  /** Nights of this model in the history, tonight included. */
  total: number;
  /** Nights of other models in the file, left out of the trend. */
  otherModels: number;
  drift: DriftAnalysis;
  /** True when tonight's line was added to the file (a run; a re-analysis only reads). */
  appended: boolean;
}

export interface HistoryInput {
  prior: readonly HistoryEntry[];
  tonight: HistoryEntry;
  settings: HistorySettings;
  /** The drift rule's level: its part of the dragon check's share of the false-alarm budget. */
  alpha: number;
  file: string;
  appended: boolean;
}

export function historySection(input: HistoryInput): {
  section: HistorySection;
  findings: GateFinding[];
  /** The drift rule as a test: its false-alarm rate and the smallest rise it detects. */
  rules: EvaluatedGateRule[];
} {
  const { tonight, settings } = input;
  // A re-analysis of a night the run already appended must not count that night twice.
  const prior = input.appended ? input.prior : withoutTonight(input.prior, tonight);
  // Tonight replaces an earlier run of the same night: nights are counted, not runs.
  const all = oneLinePerNight([...prior, tonight]);
  const ours = all.filter((e) => e.model === tonight.model);
  const nights: HistoryNight[] = ours.map((entry, i) => {
    const before = ours[i - 1];
    return {
      ...entry,
      rePulled: before !== undefined && before.digest !== null && entry.digest !== before.digest,
    };
  });
  const drift = analyseDrift(
    ours.map((e) => e.ece),
    {
      ...DRIFT_DEFAULTS,
      nights: settings.driftNights,
      maxRise: settings.maxEceRise,
      alpha: input.alpha,
    },
  );
  const section: HistorySection = {
    file: input.file,
    model: tonight.model,
    nights: nights.slice(-settings.show),
    total: ours.length,
    otherModels: all.length - ours.length,
    drift,
    appended: input.appended,
  };
  if (!tonight.ece) return { section, findings: [], rules: [] };
  return { section, findings: [driftFinding(drift)], rules: [driftRule(drift)] };
}

export function driftRule(d: DriftAnalysis): EvaluatedGateRule {
  const tests = `ECE of the last ${d.required} nights trends up: one-sided slope test (α ${num(d.alpha, 4)}, its part of the dragon check's share of the false-alarm budget) and a rise above ${signed(d.maxRise)}`;
  if (d.falseAlarmRate === null) {
    return {
      check: 'dragon',
      rule: 'ece-drift',
      tests,
      falseAlarmRate: 0,
      falseAlarmBasis: `not tested yet: ${d.available} of ${d.required} nights in the history`,
      detects: '–',
      outcome: 'not-evaluated',
    };
  }
  return {
    check: 'dragon',
    rule: 'ece-drift',
    tests,
    falseAlarmRate: d.falseAlarmRate,
    falseAlarmBasis: `simulated: ${d.replicates} windows of ${d.window} nights without change, each night's noise from its interval`,
    detects:
      d.smallestDetectedRise === null
        ? 'no rise below 1'
        : `a rise of ECE by ${signed(d.smallestDetectedRise)} across ${d.window} nights`,
    outcome: d.fired ? 'fail' : 'pass',
  };
}

function withoutTonight(prior: readonly HistoryEntry[], tonight: HistoryEntry): HistoryEntry[] {
  const last = prior.findLastIndex((e) => e.model === tonight.model);
  const numbers = Object.keys(nightlyShape()) as (keyof HistoryEntry)[];
  const same = (a: HistoryEntry, b: HistoryEntry) =>
    a.digest === b.digest &&
    numbers.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
  const entry = prior[last];
  return entry && same(entry, tonight) ? prior.filter((_, i) => i !== last) : [...prior];
}

/** The rule as a sentence, with its false-alarm rate and the smallest rise it detects. */
export function driftFinding(d: DriftAnalysis): GateFinding {
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

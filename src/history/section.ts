/**
 * The `history` part of report.json (nightly runs with `output.history`): the last nights of
 * the model, where it was re-pulled, and each check's nightly rule on them (`Check.nightly.rule`,
 * e.g. dragon's drift rule). Pure: the nights come in, the section and the rules' findings go
 * out.
 */
import type { NightlyRule } from '../checks/nightlyRule.js';
import { type CheckList, nightlyRules, nightlyShape } from '../checks/list.js';
import type { EvaluatedGateRule, GateFinding } from '../checks/types.js';
import type { GateConfig } from '../config/schema.js';
import { type HistoryEntry, oneLinePerNight } from './entry.js';

export interface HistoryNight extends HistoryEntry {
  /** The digest differs from the previous night's: the tag now names other weights. */
  rePulled: boolean;
}

/** Each nightly rule's analysis sits under its key, between the counts and `appended`. */
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
  /** True when tonight's line was added to the file (a run; a re-analysis only reads). */
  appended: boolean;
  /** The nightly rules' analyses, each under its rule's key. */
  [rule: string]: unknown;
}

export interface HistoryInput {
  prior: readonly HistoryEntry[];
  tonight: HistoryEntry;
  /** The run's config: `history.show`, and what each nightly rule reads (its level, window). */
  config: GateConfig;
  file: string;
  appended: boolean;
  /** The checks whose nightly numbers and rules the history holds. */
  checks: CheckList;
}

export function historySection(input: HistoryInput): {
  section: HistorySection;
  findings: GateFinding[];
  /** The nightly rules as tests: their false-alarm rates and what they detect. */
  rules: EvaluatedGateRule[];
} {
  const { tonight, config } = input;
  // A re-analysis of a night the run already appended must not count that night twice.
  const prior = input.appended
    ? input.prior
    : withoutTonight(input.prior, tonight, nightlyShape(input.checks));
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
  const analysed = nightlyRules(input.checks).map(({ rule }) => ({
    rule,
    analysis: rule.analyse(ours, config),
  }));
  const section = {
    file: input.file,
    model: tonight.model,
    nights: nights.slice(-config.history.show),
    total: ours.length,
    otherModels: all.length - ours.length,
    ...Object.fromEntries(analysed.map(({ rule, analysis }) => [rule.key, analysis])),
    appended: input.appended,
  } as HistorySection;
  // A rule whose number tonight lacks (its check did not run) neither finds nor is listed.
  const tested = analysed.filter(({ rule }) => rule.measured(tonight));
  return {
    section,
    findings: tested.map(({ rule, analysis }) => rule.finding(analysis)),
    rules: tested.map(({ rule, analysis }) => rule.card(analysis)),
  };
}

/** A nightly rule's analysis in a section, undefined in a report that lacks it. */
export function analysisOf(section: HistorySection, rule: NightlyRule<unknown, object>): unknown {
  return section[rule.key];
}

function withoutTonight(
  prior: readonly HistoryEntry[],
  tonight: HistoryEntry,
  shape: object,
): HistoryEntry[] {
  const last = prior.findLastIndex((e) => e.model === tonight.model);
  const numbers = Object.keys(shape) as (keyof HistoryEntry)[];
  const same = (a: HistoryEntry, b: HistoryEntry) =>
    a.digest === b.digest &&
    numbers.every((key) => JSON.stringify(a[key]) === JSON.stringify(b[key]));
  const entry = prior[last];
  return entry && same(entry, tonight) ? prior.filter((_, i) => i !== last) : [...prior];
}

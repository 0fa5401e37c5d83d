/**
 * The dragon gate rules as tests. The check's share of the run's false-alarm budget is split
 * equally (Bonferroni) between the rules that can fail the gate: ece-increase and
 * brier-above-chance always (against the baseline, or in nightly mode against the previous
 * report), max-ece and max-brier when their limit is set, and the nightly drift rule ece-drift
 * when a single-model run keeps a history (`output.history`). `history.alpha`, when set, is
 * the drift rule's part, taken out of the share before the rest is split. The comparison
 * rules are one-sided paired permutation tests at their share (exact under "no change":
 * swapping two identical players' games within a seed changes nothing); their rates were also
 * measured by simulation (bench/oc/dragon.ts, docs/gate-validity-dragon.md). The limits are
 * one-sided cluster-bootstrap tests. Warnings (known-wall repeats) and inconclusive findings
 * do not fail the gate and take no share.
 */
import { detectableShift } from '../../stats/detectableShift.js';
import { normalQuantile } from '../../stats/normal.js';
import { InputError } from '../../errors.js';
import { type CheckContext, checkFalseAlarmBudget, type GateRuleCard } from '../types.js';
import { CHANCE_BRIER, LIMIT_RULES } from './gate.js';
import type { DragonSection, DragonSeries, Estimate } from './section.js';
import type { DragonConfig, DragonSettings } from './settings.js';
import { num, percent } from '../../text/format.js';

/** The rules of the check that can fail the gate, with these settings. */
export function failingRules(gate: DragonSettings['gate'], drift = false): string[] {
  return [
    'ece-increase',
    'brier-above-chance',
    ...(gate.maxEce !== undefined ? ['max-ece'] : []),
    ...(gate.maxBrier !== undefined ? ['max-brier'] : []),
    ...(drift ? ['ece-drift'] : []),
  ];
}

/** Whether the nightly drift rule can fail this run: one model, and a history is kept. */
export function driftRuleRuns(config: DragonConfig): boolean {
  return config.output.history !== undefined && !config.models.candidate;
}

/**
 * The check's share split between its failing rules: each comparison or limit rule's rate,
 * and the drift rule's (null when it does not run). The parts add up to the share, so the
 * whole gate keeps its budget with a history configured too.
 */
export function dragonBudgetSplit(config: DragonConfig): { rule: number; drift: number | null } {
  const share = checkFalseAlarmBudget(config);
  const others = failingRules(config.dragon.gate).length;
  if (!driftRuleRuns(config)) return { rule: share / others, drift: null };
  const chosen = config.history.alpha;
  if (chosen === undefined) return { rule: share / (others + 1), drift: share / (others + 1) };
  if (chosen >= share) {
    throw new InputError(
      `history.alpha: ${chosen} is the drift rule's part of the dragon check's share of the false-alarm budget (${num(share, 4)} = false-alarm-rate ${config.falseAlarmRate} over ${config.checks.length} checks) and must be below it, leaving a part for ${failingRules(config.dragon.gate).join(', ')}. Lower it, or leave it out for an equal part (${num(share / (others + 1), 4)}).`,
    );
  }
  return { rule: (share - chosen) / others, drift: chosen };
}

/** The drift rule's level in a nightly run with a history (its part of the check's share). */
export function driftFalseAlarmRate(config: DragonConfig): number {
  const { drift, rule } = dragonBudgetSplit(config);
  return drift ?? rule;
}

/** Each failing rule's false-alarm rate: its part of the check's budget share. */
export function ruleFalseAlarmRate(config: DragonConfig): number {
  return dragonBudgetSplit(config).rule;
}

/**
 * Measured false alarms (two identical players — careful, random and overconfident, 200 runs
 * each — at 10 seeds and default settings): the rates behind the cards' basis, from
 * `npm run oc` (bench/oc/dragon.ts, docs/gate-validity-dragon.md).
 */
export const MEASURED_NO_CHANGE: Record<string, { hits: number; runs: number }> = {
  'ece-increase': { hits: 3, runs: 600 },
  'brier-above-chance': { hits: 0, runs: 600 },
};
const MEASURED_SEEDS = 10;

function pct(rate: number): string {
  return percent(rate, rate < 0.01 ? 2 : 1);
}

/** The standard error an interval at this level implies (a normal approximation). */
function standardError(interval: Estimate | null | undefined, level = 0.95): number | null {
  return interval
    ? (interval.high - interval.low) / (2 * normalQuantile(1 - (1 - level) / 2))
    : null;
}

/** Smallest rise detected with 80% power by a rule with a practical threshold and a test at α. */
export function smallestDetectedRise(se: number, alpha: number, threshold: number): number {
  return detectableShift(se, alpha, threshold);
}

/**
 * The standard error of a paired difference at this run's noise: from the comparison when
 * there is one, else √2 × the judged series' own 95% interval (two independent series).
 */
function differenceSe(
  paired: Estimate | null | undefined,
  level: number,
  own: Estimate | null | undefined,
): number | null {
  if (paired) return standardError(paired, level);
  const se = standardError(own);
  return se === null ? null : Math.SQRT2 * se;
}

/** With n paired seeds the smallest permutation p-value is 2^−n: fewer seeds cannot fail. */
export function seedsNeeded(alpha: number): number {
  return Math.ceil(Math.log2(1 / alpha));
}

function basis(rule: string, rate: number, seeds: number): string {
  const measured = MEASURED_NO_CHANGE[rule];
  const design =
    rule === 'max-ece' || rule === 'max-brier'
      ? `one-sided cluster-bootstrap test at ${pct(rate)} (not measured by simulation)`
      : `one-sided paired permutation test at ${pct(rate)}, exact for identical models`;
  if (!measured || measured.runs === 0 || seeds !== MEASURED_SEEDS) return design;
  return `${design}; simulated at ${MEASURED_SEEDS} seeds: ${measured.hits} of ${measured.runs} runs of two identical players failed (docs/gate-validity-dragon.md)`;
}

/** The rule cards of this run: one per failing rule, at its settings and its noise. */
export function dragonRuleCards(
  section: DragonSection,
  ctx: CheckContext<DragonConfig>,
): GateRuleCard[] {
  const gate = ctx.config.dragon.gate;
  const rate = section.ruleFalseAlarmRate;
  const comparing =
    section.candidate !== null || gate.previousReport !== undefined || section.comparison !== null;
  const judged: DragonSeries | null = section.candidate ?? section.baseline;
  const comparison = section.comparison;
  const level = comparison?.level ?? 1 - 2 * rate;
  const seeds = comparison?.pairedSeeds.length ?? section.seeds.length;
  const against = section.candidate ? 'the baseline' : 'the previous report';
  const unknown = 'not known: no valid move to estimate the noise from';
  const tooFew =
    seeds < seedsNeeded(rate)
      ? `nothing: with ${seeds} paired seeds the smallest p-value is ${num(2 ** -seeds, 4)}, above ${num(rate, 4)}; at least ${seedsNeeded(rate)} seeds are needed`
      : null;
  const before = comparison?.brier?.before ?? null;
  const brierMargin = before === null ? 0 : Math.max(0, CHANCE_BRIER - before);
  const rise = (se: number, threshold: number) => num(smallestDetectedRise(se, rate, threshold));
  // Each rule of this run: what it tests, the noise it tests against, what it then detects.
  const rules: [string, string, number | null, (se: number) => string][] = [];
  if (comparing) {
    rules.push(
      [
        'ece-increase',
        `ECE rise against ${against} above ${gate.maxEceIncrease}, paired by seed`,
        differenceSe(comparison?.ece?.difference, level, judged?.ece),
        (se) => tooFew ?? `an ECE rise of ${rise(se, gate.maxEceIncrease)} over ${seeds} seeds`,
      ],
      [
        'brier-above-chance',
        `Brier score rising above ${CHANCE_BRIER} (always saying 50%) from ${against} at or below it, paired by seed`,
        differenceSe(comparison?.brier?.difference, level, judged?.brierInterval),
        (se) =>
          tooFew ??
          `a Brier rise of ${rise(se, brierMargin)} over ${seeds} seeds, ending above ${CHANCE_BRIER}`,
      ],
    );
  }
  for (const limitRule of LIMIT_RULES) {
    const limit = limitRule.limit(gate);
    if (limit === undefined) continue;
    const at = (se: number) => num(limit + smallestDetectedRise(se, rate, 0));
    rules.push([
      limitRule.id,
      `${limitRule.title} of the judged model above ${limit}`,
      standardError(judged && limitRule.estimate(judged)),
      (se) => `${limitRule.name} of ${at(se)} at ${section.seeds.length} seeds`,
    ]);
  }
  return rules.map(([rule, tests, se, detects]) => ({
    check: 'dragon',
    rule,
    tests,
    falseAlarmRate: rate,
    falseAlarmBasis: basis(rule, rate, seeds),
    // Too few paired seeds for the test to fail says more than an unknown noise.
    detects: se === null ? (rule.startsWith('max-') ? unknown : (tooFew ?? unknown)) : detects(se),
  }));
}

/**
 * Gate rules of the dragon check. With a candidate: candidate against baseline. Nightly (no
 * candidate): the model against the previous report's dragon section and absolute limits.
 *
 * Every rule that fails the gate is a one-sided test at the false-alarm rate allotted to it
 * (section.ruleFalseAlarmRate, see rules.ts): a change fails only when its paired interval, at
 * coverage 1 − 2 × that rate, lies beyond zero (or beyond the absolute limit). Comparisons are
 * made over the games both series finished (paired by seed); a comparison that cannot be made
 * is inconclusive with a sentence saying what was and was not compared, never a silent pass.
 */
import { z } from 'zod';
import { clusterBootstrapEce } from '../../stats/calibration.js';
import { clusterBootstrapRate } from '../../stats/clusterRatio.js';
import { exceeds } from '../exceeds.js';
import type { GateFinding, Severity } from '../types.js';
import { type ComparableSeries, compareSeries } from './analyse.js';
import type {
  DragonComparison,
  DragonSection,
  DragonSeries,
  Estimate,
  PairedMeasure,
} from './section.js';
import type { DragonSettings } from './settings.js';
import {
  levelText,
  num,
  percent,
  plural,
  points,
  pValue,
  seedRanges,
  signed,
} from '../../text/format.js';

/** Always saying 50% scores 0.25: a Brier score above it is worse than admitting ignorance. */
export const CHANCE_BRIER = 0.25;

type GateSettings = DragonSettings['gate'];

/** Adds a finding of the dragon check. */
type Say = (rule: string, severity: Severity, message: string, values?: Values) => void;
type Values = GateFinding['values'];

const pts = (v: number) => points(v, 1, 'points');
const pText = (p: number) => pValue(p, 4);

/**
 * `previous`: undefined when no previous report was given; null when one was given but holds
 * no dragon section; otherwise the report or its dragon section.
 */
export function gateDragon(
  section: DragonSection,
  gate: GateSettings,
  previous?: unknown,
): GateFinding[] {
  const out: GateFinding[] = [];
  const say: Say = (rule, severity, message, values) =>
    out.push({ check: 'dragon', rule, severity, message, ...(values ? { values } : {}) });
  for (const notice of section.notices) say('records-left-out', 'info', notice);
  const instrument = section.instrument;
  if (instrument && !instrument.ranked) {
    const missed = instrument.separations
      .filter((s) => !s.separated)
      .map(
        (s) =>
          `${s.worse} − ${s.better} ${signed(s.difference.value)} [${signed(s.difference.low)}, ${signed(s.difference.high)}]`,
      );
    say(
      'instrument-control',
      'inconclusive',
      `The reference players did not rank as built: overconfident must be worse calibrated than each other player with a 95% paired interval above 0, and was not (ECE difference ${missed.join('; ')}). The instrument cannot be trusted on this run.`,
    );
  }
  // A series that cannot be trusted or has nothing to measure makes the verdict inconclusive.
  for (const s of [section.baseline, section.candidate]) {
    if (s?.perturbed) {
      say(
        'perturbed',
        'inconclusive',
        `${s.model}: ${s.timeouts} of ${s.calls} decisions timed out (${percent(s.timeoutRate)}, limit ${percent(gate.maxTimeoutShare)}): the measurement is perturbed.`,
        { model: s.model, timeouts: s.timeouts, calls: s.calls },
      );
    }
    if (s && s.calls > 0 && s.moves === 0) {
      say(
        'no-moves',
        'inconclusive',
        `${s.model} made no valid move (${s.invalid} invalid answers, ${s.passes} passes, ${s.timeouts} timeouts): its calibration cannot be measured.`,
        { model: s.model },
      );
    }
  }
  if (!section.baseline) {
    say('no-games', 'inconclusive', 'No dragon game of the baseline is in the sample log.');
  }
  const alpha = section.ruleFalseAlarmRate;
  if (section.candidate && section.baseline && section.comparison) {
    compare(section.candidate, section.comparison, { gate, against: 'the baseline', alpha, say });
  } else if (section.baseline && !section.candidate && previous !== undefined) {
    nightlyRules(section, section.baseline, previous, {
      gate,
      against: 'the previous report',
      alpha,
      say,
    });
  }
  const judged = section.candidate ?? section.baseline;
  if (judged && judged.moves > 0) absoluteRules(judged, gate, section, say);
  return out;
}

/** What was compared: "over 8 paired games (seeds 0–7); not compared: seeds 8–9 of …". */
function coverage(comparison: DragonComparison, against: string): string {
  const n = comparison.pairedSeeds.length;
  const left: string[] = [];
  if (comparison.onlyBefore.length > 0) {
    left.push(`seeds ${seedRanges(comparison.onlyBefore)} played only by ${against}`);
  }
  if (comparison.onlyAfter.length > 0) {
    left.push(`seeds ${seedRanges(comparison.onlyAfter)} played only in this series`);
  }
  const paired = `over ${plural(n, 'paired game')}${n > 0 ? ` (seeds ${seedRanges(comparison.pairedSeeds)})` : ''}`;
  return left.length > 0 ? `${paired}; not compared: ${left.join(', ')}` : paired;
}

/** The settings of one comparison: what it is against, and each failing rule's rate. */
interface Against {
  gate: GateSettings;
  against: string;
  alpha: number;
  say: Say;
}

/** What a comparison rule's sentence reads besides its measure. */
interface Compared extends Against {
  after: DragonSeries;
  comparison: DragonComparison;
  /** Which games were compared, in words. */
  where: string;
  /** The difference, its paired interval and the permutation test, in words. */
  test: (m: PairedMeasure) => string;
}

/**
 * A rule comparing two series over their paired games: the measure it reads, whether the
 * change passes its limit, whether it is beyond the noise, the severity of each case (beyond,
 * within the noise), its sentence and values, and what it says when it could not compare.
 */
interface ComparisonRule {
  id: string;
  reads: (c: DragonComparison) => PairedMeasure | null;
  beyond: (m: PairedMeasure, gate: GateSettings) => boolean;
  significant: (m: PairedMeasure, alpha: number) => boolean;
  severity: readonly [Severity, Severity];
  sentence: (m: PairedMeasure, c: Compared, significant: boolean) => string;
  values: (m: PairedMeasure, c: Compared) => Values;
  missing: (c: Compared) => [Severity, string] | null;
}

const byPermutation = (m: PairedMeasure, alpha: number) => m.pValue <= alpha;

/** ece-increase and brier-above-chance fail the gate; known-wall repeats only warn. */
const COMPARISON_RULES: readonly ComparisonRule[] = [
  {
    id: 'ece-increase',
    reads: (c) => c.ece,
    beyond: (m, gate) => exceeds(m.difference.value, gate.maxEceIncrease),
    significant: byPermutation,
    severity: ['fail', 'info'],
    sentence: (m, c, significant) =>
      `${c.after.model} is less well calibrated than ${c.against}: ECE ${num(m.after)} vs ${num(m.before)} ${c.where} (${c.test(m)}), allowed increase ${num(c.gate.maxEceIncrease)}${significant ? '' : '; the rise is within what two identical models show, so it is not counted as a regression'}.`,
    values: (m, c) => ({
      model: c.after.model,
      before: m.before,
      after: m.after,
      difference: m.difference.value,
      low: m.difference.low,
      high: m.difference.high,
      level: c.comparison.level,
      pValue: m.pValue,
      falseAlarmRate: c.alpha,
      pairedGames: c.comparison.pairedSeeds.length,
      maxIncrease: c.gate.maxEceIncrease,
    }),
    missing: (c) => [
      'inconclusive',
      `The ECE of ${c.after.model} could not be compared with ${c.against} ${c.where}: one side has no valid move on those games.`,
    ],
  },
  {
    id: 'brier-above-chance',
    reads: (c) => c.brier,
    beyond: (m) => m.after > CHANCE_BRIER && m.before <= CHANCE_BRIER,
    significant: byPermutation,
    severity: ['fail', 'info'],
    sentence: (m, c, significant) =>
      `${c.after.model} has a Brier score of ${num(m.after)}, above the ${num(CHANCE_BRIER)} of always saying 50%, while ${c.against} scored ${num(m.before)} ${c.where} (${c.test(m)})${significant ? '' : '; the rise is within what two identical models show, so it is not counted'}.`,
    values: (m, c) => ({
      model: c.after.model,
      brier: m.after,
      previous: m.before,
      low: m.difference.low,
      high: m.difference.high,
      level: c.comparison.level,
      pValue: m.pValue,
      falseAlarmRate: c.alpha,
    }),
    missing: (c) => [
      'inconclusive',
      `The Brier score of ${c.after.model} could not be compared with ${c.against}: ${c.against} has no per-game Brier sums (a report written before they were kept). Compared: the ECE ${c.where}; not compared: Brier score, known-wall moves.`,
    ],
  },
  {
    id: 'known-wall-repeats',
    reads: (c) => c.knownWallRepeats,
    beyond: (m, gate) => exceeds(m.difference.value, gate.maxKnownWallIncrease),
    // A warning takes no share of the budget: it reads the interval, not a test.
    significant: (m) => m.difference.low > 0,
    severity: ['warn', 'info'],
    sentence: (m, c, significant) =>
      `${c.after.model} walks into walls it already knows more often than ${c.against}: ${percent(m.after)} of its moves against ${percent(m.before)} ${c.where} (${pts(m.difference.value)}, ${levelText(c.comparison.level)} paired interval [${pts(m.difference.low)}, ${pts(m.difference.high)}]; warning above ${pts(c.gate.maxKnownWallIncrease)}${significant ? '' : ', and the interval includes 0'}).`,
    values: (m, c) => ({
      model: c.after.model,
      rate: m.after,
      previous: m.before,
      increase: m.difference.value,
      low: m.difference.low,
    }),
    // Without Brier sums the Brier rule has already said what was not compared.
    missing: (c) =>
      c.comparison.brier
        ? [
            'warn',
            `Known-wall moves of ${c.after.model} could not be compared with ${c.against}: it has no per-game counts.`,
          ]
        : null,
  },
];

function compare(after: DragonSeries, comparison: DragonComparison, on: Against): void {
  const { against, alpha, say } = on;
  if (comparison.pairedSeeds.length === 0) {
    for (const rule of COMPARISON_RULES) {
      say(
        rule.id,
        'inconclusive',
        `${after.model} could not be compared with ${against}: no seed was finished by both (this series: ${seedRanges(after.games.map((g) => g.seed)) || 'none'}; ${against}: ${seedRanges(comparison.onlyBefore) || 'none'}). Nothing was compared; play the same seeds.`,
        { model: after.model },
      );
    }
    return;
  }
  const where = coverage(comparison, against);
  if (comparison.onlyBefore.length > 0 || comparison.onlyAfter.length > 0) {
    say('paired-games', 'info', `${after.model} is compared with ${against} ${where}.`);
  }
  const level = levelText(comparison.level);
  const test = ({ difference: d, pValue: p }: PairedMeasure) =>
    `${signed(d.value)}, ${level} paired interval [${signed(d.low)}, ${signed(d.high)}]; one-sided paired permutation p = ${pText(p)}, a regression at p ≤ ${pText(alpha)}`;
  const c: Compared = { ...on, after, comparison, where, test };
  for (const rule of COMPARISON_RULES) {
    const measure = rule.reads(comparison);
    const missing = measure ? null : rule.missing(c);
    if (missing) say(rule.id, ...missing);
    if (!measure || !rule.beyond(measure, on.gate)) continue;
    const significant = rule.significant(measure, alpha);
    const sentence = rule.sentence(measure, c, significant);
    say(rule.id, rule.severity[significant ? 0 : 1], sentence, rule.values(measure, c));
  }
}

type Bootstrap = { replicates: number; seed: number; level: number };

/** An absolute limit on a number of the judged series, tested by its bootstrap interval. */
interface LimitRule {
  id: string;
  /** The number in the sentences ("ECE", "an ECE"), and its key in the finding's values. */
  title: string;
  name: string;
  key: string;
  /** Its 95% interval in the section, for the rule's card. */
  estimate: (series: DragonSeries) => Estimate | null;
  limit: (gate: GateSettings) => number | undefined;
  value: (series: DragonSeries) => number | null;
  /** Its interval at the rule's level, resampling games; null without games to resample. */
  interval: (series: DragonSeries, bootstrap: Bootstrap) => { low: number; high: number } | null;
}

export const LIMIT_RULES: readonly LimitRule[] = [
  {
    id: 'max-ece',
    title: 'ECE',
    name: 'an ECE',
    key: 'ece',
    estimate: (s) => s.ece,
    limit: (gate) => gate.maxEce,
    value: (s) => s.ece?.value ?? null,
    interval: (s, bootstrap) =>
      clusterBootstrapEce(
        s.games.map((g) => g.tally),
        bootstrap,
      ) ?? s.ece,
  },
  {
    id: 'max-brier',
    title: 'Brier score',
    name: 'a Brier score',
    key: 'brier',
    estimate: (s) => s.brierInterval,
    limit: (gate) => gate.maxBrier,
    value: (s) => s.brier,
    interval: (s, bootstrap) =>
      clusterBootstrapRate(
        s.games.map((g) => ({ sum: g.brierSum, count: g.moves })),
        bootstrap,
        { floor: 0, ceiling: 1 },
      ),
  },
];

/**
 * Absolute limits as one-sided tests: the model fails when its interval at the rule's level
 * lies above the limit; above the limit within the noise is a warning.
 */
function absoluteRules(series: DragonSeries, gate: GateSettings, section: DragonSection, say: Say) {
  const level = 1 - 2 * section.ruleFalseAlarmRate;
  const { replicates, seed } = section.bootstrap;
  for (const rule of LIMIT_RULES) {
    const limit = rule.limit(gate);
    const value = rule.value(series);
    if (limit === undefined || value === null || !exceeds(value, limit)) continue;
    const interval = rule.interval(series, { replicates, seed, level });
    const low = interval?.low ?? value;
    const high = interval?.high ?? value;
    const significant = low > limit;
    say(
      rule.id,
      significant ? 'fail' : 'warn',
      `${series.model} has ${rule.name} of ${num(value)} (${levelText(level)} interval [${num(low)}, ${num(high)}]), above the limit of ${num(limit)}${significant ? '' : '; the interval reaches the limit, so it does not fail'}.`,
      { model: series.model, [rule.key]: value, low, limit, level },
    );
  }
}

const tallySchema = z.object({
  count: z.array(z.number()),
  confidence: z.array(z.number()),
  successes: z.array(z.number()),
});

const previousSeriesSchema = z.object({
  model: z.string(),
  games: z.array(
    z.object({
      seed: z.number(),
      tally: tallySchema,
      brierSum: z.number().optional(),
      knownWallRepeats: z.number().optional(),
    }),
  ),
});

const previousSectionSchema = z.object({
  check: z.literal('dragon'),
  protocol: z.string(),
  promptSha256: z.string(),
  hints: z.string(),
  walls: z.number(),
  bins: z.object({ count: z.number(), edges: z.string() }),
  baseline: previousSeriesSchema.nullable(),
  candidate: previousSeriesSchema.nullable(),
});

/** Accepts a whole report.json or its dragon section. */
function previousSection(previous: unknown): z.infer<typeof previousSectionSchema> | null {
  const checks: unknown =
    typeof previous === 'object' && previous !== null ? Reflect.get(previous, 'checks') : null;
  const candidate: unknown =
    typeof checks === 'object' && checks !== null ? Reflect.get(checks, 'dragon') : previous;
  const parsed = previousSectionSchema.safeParse(candidate);
  return parsed.success ? parsed.data : null;
}

function nightlyRules(
  section: DragonSection,
  current: DragonSeries,
  previous: unknown,
  on: Against,
) {
  // A comparison that cannot be made is inconclusive, with a sentence saying why.
  const nothingCompared = (reason: string) =>
    on.say(
      'previous-report',
      'inconclusive',
      `${reason} Nothing was compared (ECE, Brier score, known-wall moves): the nightly comparison is inconclusive, not passed.`,
    );
  if (previous === null) return nothingCompared('The previous report has no dragon section.');
  const before = previousSection(previous);
  if (!before) {
    return nothingCompared(
      'The previous report has no readable dragon section (not a model-gate report.json, or one whose dragon section lacks per-game tallies).',
    );
  }
  const differences = [
    before.protocol !== section.protocol && `protocol ${before.protocol} → ${section.protocol}`,
    before.promptSha256 !== section.promptSha256 && 'prompt (SHA-256 differs)',
    before.hints !== section.hints && `hints ${before.hints} → ${section.hints}`,
    before.walls !== section.walls && `walls ${before.walls} → ${section.walls}`,
    (before.bins.count !== section.bins.count || before.bins.edges !== section.bins.edges) &&
      'confidence bins',
  ].filter((d): d is string => typeof d === 'string');
  if (differences.length > 0) {
    return nothingCompared(
      `The previous report was measured differently (${differences.join('; ')}); two protocols are never mixed.`,
    );
  }
  const series =
    [before.candidate, before.baseline].find((s) => s?.model === current.model) ??
    before.candidate ??
    before.baseline;
  if (!series) return nothingCompared('The previous report has no measured model.');
  if (series.model !== current.model) {
    on.say(
      'previous-report',
      'info',
      `The previous report measured ${series.model}; ${current.model} is compared with it.`,
    );
  }
  const { replicates, seed } = section.bootstrap;
  const comparable: ComparableSeries = series;
  compare(current, compareSeries(comparable, current, { replicates, seed }), on);
}

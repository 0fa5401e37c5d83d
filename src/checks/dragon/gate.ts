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
import type { DragonComparison, DragonSection, DragonSeries, PairedMeasure } from './section.js';
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

function finding(
  rule: string,
  severity: Severity,
  message: string,
  values?: GateFinding['values'],
): GateFinding {
  return { check: 'dragon', rule, severity, message, ...(values ? { values } : {}) };
}

const pts = (v: number) => points(v, 1, 'points');

/**
 * `previous`: undefined when no previous report was given; null when one was given but holds
 * no dragon section; otherwise the report or its dragon section.
 */
export function gateDragon(
  section: DragonSection,
  gate: GateSettings,
  previous?: unknown,
): GateFinding[] {
  const findings: GateFinding[] = [];
  for (const notice of section.notices) findings.push(finding('records-left-out', 'info', notice));

  if (section.instrument && !section.instrument.ranked) {
    const missed = section.instrument.separations
      .filter((s) => !s.separated)
      .map(
        (s) =>
          `${s.worse} − ${s.better} ${signed(s.difference.value)} [${signed(s.difference.low)}, ${signed(s.difference.high)}]`,
      );
    findings.push(
      finding(
        'instrument-control',
        'inconclusive',
        `The reference players did not rank as built: overconfident must be worse calibrated than each other player with a 95% paired interval above 0, and was not (ECE difference ${missed.join('; ')}). The instrument cannot be trusted on this run.`,
      ),
    );
  }

  const judged = section.candidate ?? section.baseline;
  const measured = [section.baseline, section.candidate].filter(
    (s): s is DragonSeries => s !== null,
  );
  for (const series of measured) findings.push(...measurable(series, gate));
  if (!section.baseline) {
    findings.push(
      finding('no-games', 'inconclusive', 'No dragon game of the baseline is in the sample log.'),
    );
  }

  if (section.candidate && section.baseline && section.comparison) {
    findings.push(
      ...comparisonRules(
        section.candidate,
        section.comparison,
        gate,
        'the baseline',
        section.ruleFalseAlarmRate,
      ),
    );
  } else if (section.baseline && !section.candidate && previous !== undefined) {
    findings.push(...nightlyRules(section, section.baseline, gate, previous));
  }
  if (judged && judged.moves > 0) findings.push(...absoluteRules(judged, gate, section));
  return findings;
}

/** A series that cannot be trusted or has nothing to measure makes the verdict inconclusive. */
function measurable(series: DragonSeries, gate: GateSettings): GateFinding[] {
  const out: GateFinding[] = [];
  if (series.perturbed) {
    out.push(
      finding(
        'perturbed',
        'inconclusive',
        `${series.model}: ${series.timeouts} of ${series.calls} decisions timed out (${percent(series.timeoutRate)}, limit ${percent(gate.maxTimeoutShare)}): the measurement is perturbed.`,
        { model: series.model, timeouts: series.timeouts, calls: series.calls },
      ),
    );
  }
  if (series.calls > 0 && series.moves === 0) {
    out.push(
      finding(
        'no-moves',
        'inconclusive',
        `${series.model} made no valid move (${series.invalid} invalid answers, ${series.passes} passes, ${series.timeouts} timeouts): its calibration cannot be measured.`,
        { model: series.model },
      ),
    );
  }
  return out;
}

/** The rules that compare two series; each is a failing rule except known-wall repeats. */
const COMPARISON_RULES = ['ece-increase', 'brier-above-chance', 'known-wall-repeats'] as const;

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

function intervalText(measure: PairedMeasure, level: number): string {
  const d = measure.difference;
  return `${signed(d.value)}, ${levelText(level)} paired interval [${signed(d.low)}, ${signed(d.high)}]`;
}

const pText = (p: number) => pValue(p, 4);

/** The test behind a failing rule, in words: its p-value against the rule's false-alarm rate. */
function testText(measure: PairedMeasure, alpha: number): string {
  return `one-sided paired permutation p = ${pText(measure.pValue)}, a regression at p ≤ ${pText(alpha)}`;
}

function comparisonRules(
  after: DragonSeries,
  comparison: DragonComparison,
  gate: GateSettings,
  against: string,
  alpha: number,
): GateFinding[] {
  const out: GateFinding[] = [];
  const where = coverage(comparison, against);
  const level = comparison.level;
  if (comparison.pairedSeeds.length === 0) {
    for (const rule of COMPARISON_RULES) {
      out.push(
        finding(
          rule,
          'inconclusive',
          `${after.model} could not be compared with ${against}: no seed was finished by both (this series: ${seedRanges(after.games.map((g) => g.seed)) || 'none'}; ${against}: ${seedRanges(comparison.onlyBefore) || 'none'}). Nothing was compared; play the same seeds.`,
          { model: after.model },
        ),
      );
    }
    return out;
  }
  if (comparison.onlyBefore.length > 0 || comparison.onlyAfter.length > 0) {
    out.push(
      finding('paired-games', 'info', `${after.model} is compared with ${against} ${where}.`),
    );
  }

  const c: ComparisonContext = { after, comparison, gate, against, alpha, where, level };
  return [...out, ...eceRule(c), ...brierRule(c), ...knownWallRule(c)];
}

/** What the comparison rules of one series share. */
interface ComparisonContext {
  after: DragonSeries;
  comparison: DragonComparison;
  gate: GateSettings;
  against: string;
  alpha: number;
  /** Which games were compared, in words. */
  where: string;
  level: number;
}

function eceRule(c: ComparisonContext): GateFinding[] {
  const { after, comparison, gate, against, alpha, where, level } = c;
  const out: GateFinding[] = [];
  const ece = comparison.ece;
  if (!ece) {
    out.push(
      finding(
        'ece-increase',
        'inconclusive',
        `The ECE of ${after.model} could not be compared with ${against} ${where}: one side has no valid move on those games.`,
      ),
    );
  } else if (exceeds(ece.difference.value, gate.maxEceIncrease)) {
    const significant = ece.pValue <= alpha;
    const base = `${after.model} is less well calibrated than ${against}: ECE ${num(ece.after)} vs ${num(ece.before)} ${where} (${intervalText(ece, level)}; ${testText(ece, alpha)}), allowed increase ${num(gate.maxEceIncrease)}`;
    out.push(
      finding(
        'ece-increase',
        significant ? 'fail' : 'info',
        significant
          ? `${base}.`
          : `${base}; the rise is within what two identical models show, so it is not counted as a regression.`,
        {
          model: after.model,
          before: ece.before,
          after: ece.after,
          difference: ece.difference.value,
          low: ece.difference.low,
          high: ece.difference.high,
          level,
          pValue: ece.pValue,
          falseAlarmRate: alpha,
          pairedGames: comparison.pairedSeeds.length,
          maxIncrease: gate.maxEceIncrease,
        },
      ),
    );
  }
  return out;
}

function brierRule(c: ComparisonContext): GateFinding[] {
  const { after, comparison, against, alpha, where, level } = c;
  const out: GateFinding[] = [];
  const brier = comparison.brier;
  if (!brier) {
    out.push(
      finding(
        'brier-above-chance',
        'inconclusive',
        `The Brier score of ${after.model} could not be compared with ${against}: ${against} has no per-game Brier sums (a report written before they were kept). Compared: the ECE ${where}; not compared: Brier score, known-wall moves.`,
      ),
    );
  } else if (brier.after > CHANCE_BRIER && brier.before <= CHANCE_BRIER) {
    const significant = brier.pValue <= alpha;
    const base = `${after.model} has a Brier score of ${num(brier.after)}, above the ${num(CHANCE_BRIER)} of always saying 50%, while ${against} scored ${num(brier.before)} ${where} (${intervalText(brier, level)}; ${testText(brier, alpha)})`;
    out.push(
      finding(
        'brier-above-chance',
        significant ? 'fail' : 'info',
        significant
          ? `${base}.`
          : `${base}; the rise is within what two identical models show, so it is not counted.`,
        {
          model: after.model,
          brier: brier.after,
          previous: brier.before,
          low: brier.difference.low,
          high: brier.difference.high,
          level,
          pValue: brier.pValue,
          falseAlarmRate: alpha,
        },
      ),
    );
  }
  return out;
}

function knownWallRule(c: ComparisonContext): GateFinding[] {
  const { after, comparison, gate, against, where, level } = c;
  const out: GateFinding[] = [];
  const repeats = comparison.knownWallRepeats;
  if (!repeats) {
    if (comparison.brier) {
      out.push(
        finding(
          'known-wall-repeats',
          'warn',
          `Known-wall moves of ${after.model} could not be compared with ${against}: it has no per-game counts.`,
        ),
      );
    }
  } else if (exceeds(repeats.difference.value, gate.maxKnownWallIncrease)) {
    const significant = repeats.difference.low > 0;
    out.push(
      finding(
        'known-wall-repeats',
        significant ? 'warn' : 'info',
        `${after.model} walks into walls it already knows more often than ${against}: ${percent(repeats.after)} of its moves against ${percent(repeats.before)} ${where} (${pts(repeats.difference.value)}, ${levelText(level)} paired interval [${pts(repeats.difference.low)}, ${pts(repeats.difference.high)}]; warning above ${pts(gate.maxKnownWallIncrease)}${significant ? '' : ', and the interval includes 0'}).`,
        {
          model: after.model,
          rate: repeats.after,
          previous: repeats.before,
          increase: repeats.difference.value,
          low: repeats.difference.low,
        },
      ),
    );
  }
  return out;
}

/**
 * Absolute limits as one-sided tests: the model fails when its interval at the rule's level
 * lies above the limit; above the limit within the noise is a warning.
 */
function absoluteRules(
  series: DragonSeries,
  gate: GateSettings,
  section: DragonSection,
): GateFinding[] {
  const out: GateFinding[] = [];
  const level = 1 - 2 * section.ruleFalseAlarmRate;
  const bootstrap = {
    replicates: section.bootstrap.replicates,
    seed: section.bootstrap.seed,
    level,
  };
  if (gate.maxEce !== undefined && series.ece && exceeds(series.ece.value, gate.maxEce)) {
    const interval = clusterBootstrapEce(
      series.games.map((g) => g.tally),
      bootstrap,
    );
    const low = interval?.low ?? series.ece.low;
    const significant = low > gate.maxEce;
    out.push(
      finding(
        'max-ece',
        significant ? 'fail' : 'warn',
        `${series.model} has an ECE of ${num(series.ece.value)} (${levelText(level)} interval [${num(low)}, ${num(interval?.high ?? series.ece.high)}]), above the limit of ${num(gate.maxEce)}${significant ? '' : '; the interval reaches the limit, so it does not fail'}.`,
        { model: series.model, ece: series.ece.value, low, limit: gate.maxEce, level },
      ),
    );
  }
  if (
    gate.maxBrier !== undefined &&
    series.brier !== null &&
    exceeds(series.brier, gate.maxBrier)
  ) {
    const interval = clusterBootstrapRate(
      series.games.map((g) => ({ sum: g.brierSum, count: g.moves })),
      bootstrap,
      { floor: 0, ceiling: 1 },
    );
    const low = interval?.low ?? series.brier;
    const significant = low > gate.maxBrier;
    out.push(
      finding(
        'max-brier',
        significant ? 'fail' : 'warn',
        `${series.model} has a Brier score of ${num(series.brier)} (${levelText(level)} interval [${num(low)}, ${num(interval?.high ?? series.brier)}]), above the limit of ${num(gate.maxBrier)}${significant ? '' : '; the interval reaches the limit, so it does not fail'}.`,
        { model: series.model, brier: series.brier, low, limit: gate.maxBrier, level },
      ),
    );
  }
  return out;
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

/** Every comparison rule inconclusive, with one sentence saying why nothing was compared. */
function nothingCompared(reason: string): GateFinding[] {
  return [
    finding(
      'previous-report',
      'inconclusive',
      `${reason} Nothing was compared (ECE, Brier score, known-wall moves): the nightly comparison is inconclusive, not passed.`,
    ),
  ];
}

function nightlyRules(
  section: DragonSection,
  current: DragonSeries,
  gate: GateSettings,
  previous: unknown,
): GateFinding[] {
  if (previous === null) {
    return nothingCompared('The previous report has no dragon section.');
  }
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
  const out: GateFinding[] = [];
  if (series.model !== current.model) {
    out.push(
      finding(
        'previous-report',
        'info',
        `The previous report measured ${series.model}; ${current.model} is compared with it.`,
      ),
    );
  }
  const comparable: ComparableSeries = series;
  const comparison = compareSeries(comparable, current, {
    bootstrapReplicates: section.bootstrap.replicates,
    bootstrapSeed: section.bootstrap.seed,
  });
  out.push(
    ...comparisonRules(
      current,
      comparison,
      gate,
      'the previous report',
      section.ruleFalseAlarmRate,
    ),
  );
  return out;
}

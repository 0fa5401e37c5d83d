/**
 * Gate rules of the dragon check. With a candidate: candidate against baseline. Nightly (no
 * candidate): the model against the previous report's dragon section and absolute limits.
 */
import { z } from 'zod';
import { exceeds } from '../exceeds.js';
import type { GateFinding, Severity } from '../types.js';
import { type ComparableSeries, compareSeries } from './analysis.js';
import type { DragonComparison, DragonSection, DragonSeries } from './section.js';
import type { DragonSettings } from './settings.js';

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

const f3 = (v: number) => v.toFixed(3);
const signed = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v).toFixed(3)}`;
const pts = (v: number) => `${v >= 0 ? '+' : '−'}${Math.abs(v * 100).toFixed(1)} points`;

export function dragonGate(
  section: DragonSection,
  gate: GateSettings,
  previous?: unknown,
): GateFinding[] {
  const findings: GateFinding[] = [];
  for (const notice of section.notices) findings.push(finding('records-left-out', 'info', notice));

  if (section.instrument && !section.instrument.ranked) {
    findings.push(
      finding(
        'instrument-control',
        'inconclusive',
        `The reference players did not rank as built (ECE from lowest: ${section.instrument.order.join(', ')}; expected careful first and overconfident last): the instrument cannot be trusted on this run.`,
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
      ...comparisonRules(section.baseline, section.candidate, section.comparison, gate, 'baseline'),
    );
  } else if (section.baseline && !section.candidate && previous !== undefined) {
    findings.push(...nightlyRules(section, section.baseline, gate, previous));
  }
  if (judged && judged.moves > 0) findings.push(...absoluteRules(judged, gate));
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

function percent(value: number | null): string {
  return value === null ? '–' : `${(value * 100).toFixed(1)}%`;
}

function comparisonRules(
  before: { model: string; ece: { value: number } | null; brier: number | null },
  after: DragonSeries,
  comparison: DragonComparison,
  gate: GateSettings,
  against: 'baseline' | 'previous report',
): GateFinding[] {
  const out: GateFinding[] = [];
  const difference = comparison.eceDifference;
  if (difference && exceeds(difference.value, gate.maxEceIncrease)) {
    const excludesZero = difference.low > 0;
    const base = `${after.model} is less well calibrated than the ${against}: ECE ${f3(after.ece?.value ?? Number.NaN)} vs ${f3(before.ece?.value ?? Number.NaN)} (${signed(difference.value)} over ${comparison.pairedSeeds.length} paired games, 95% interval [${signed(difference.low)}, ${signed(difference.high)}]), allowed increase ${f3(gate.maxEceIncrease)}`;
    out.push(
      finding(
        'ece-increase',
        excludesZero ? 'fail' : 'info',
        excludesZero
          ? `${base}.`
          : `${base}; the interval includes 0, so the rise is not counted as a regression.`,
        {
          model: after.model,
          difference: difference.value,
          low: difference.low,
          high: difference.high,
          maxIncrease: gate.maxEceIncrease,
        },
      ),
    );
  }
  if (
    after.brier !== null &&
    before.brier !== null &&
    after.brier > CHANCE_BRIER &&
    before.brier <= CHANCE_BRIER
  ) {
    out.push(
      finding(
        'brier-above-chance',
        'fail',
        `${after.model} has a Brier score of ${f3(after.brier)}, above the ${f3(CHANCE_BRIER)} of always saying 50%, while the ${against} scored ${f3(before.brier)}.`,
        { model: after.model, brier: after.brier, previous: before.brier },
      ),
    );
  }
  const repeats = comparison.knownWallRepeatDifference;
  if (repeats !== null && exceeds(repeats, gate.maxKnownWallIncrease)) {
    out.push(
      finding(
        'known-wall-repeats',
        'warn',
        `${after.model} walks into walls it already knows more often than the ${against}: ${percent(after.knownWallRepeatRate)} of its moves (${pts(repeats)}, warning above ${pts(gate.maxKnownWallIncrease)}).`,
        { model: after.model, rate: after.knownWallRepeatRate, increase: repeats },
      ),
    );
  }
  return out;
}

function absoluteRules(series: DragonSeries, gate: GateSettings): GateFinding[] {
  const out: GateFinding[] = [];
  if (gate.maxEce !== undefined && series.ece && series.ece.value > gate.maxEce) {
    out.push(
      finding(
        'max-ece',
        'fail',
        `${series.model} has an ECE of ${f3(series.ece.value)} (95% interval [${f3(series.ece.low)}, ${f3(series.ece.high)}]), above the limit of ${f3(gate.maxEce)}.`,
        { model: series.model, ece: series.ece.value, limit: gate.maxEce },
      ),
    );
  }
  if (gate.maxBrier !== undefined && series.brier !== null && series.brier > gate.maxBrier) {
    out.push(
      finding(
        'max-brier',
        'fail',
        `${series.model} has a Brier score of ${f3(series.brier)}, above the limit of ${f3(gate.maxBrier)}.`,
        { model: series.model, brier: series.brier, limit: gate.maxBrier },
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
  ece: z.object({ value: z.number() }).nullable(),
  brier: z.number().nullable(),
  knownWallRepeatRate: z.number().nullable(),
  games: z.array(z.object({ seed: z.number(), tally: tallySchema })),
});

const previousSectionSchema = z.object({
  check: z.literal('dragon'),
  protocol: z.string(),
  promptSha256: z.string(),
  hints: z.string(),
  walls: z.number(),
  bins: z.object({ count: z.number(), edges: z.string() }),
  bootstrap: z.object({ replicates: z.number(), seed: z.number() }),
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
  gate: GateSettings,
  previous: unknown,
): GateFinding[] {
  const before = previousSection(previous);
  if (!before) {
    return [
      finding(
        'previous-report',
        'warn',
        'The previous report has no readable dragon section; the nightly comparison was skipped.',
      ),
    ];
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
    return [
      finding(
        'previous-report',
        'warn',
        `The previous report was measured differently (${differences.join('; ')}); the nightly comparison was skipped rather than mixing two protocols.`,
      ),
    ];
  }
  const series =
    [before.candidate, before.baseline].find((s) => s?.model === current.model) ??
    before.candidate ??
    before.baseline;
  if (!series) {
    return [finding('previous-report', 'warn', 'The previous report has no measured model.')];
  }
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
  out.push(...comparisonRules(series, current, comparison, gate, 'previous report'));
  return out;
}

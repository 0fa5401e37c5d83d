/**
 * Operating characteristics of the speed gate rules, measured from a known truth: records of
 * two models whose decode and prompt times per token and answer lengths are drawn around
 * known values (lognormal noise σ = 0.25 per request, bench/oc/speedGenerator.ts), in the
 * runner's order (four alternating blocks), through the check's real fold and gate.
 *
 * Two sizes: the check alone (its six prompts × 15 answers, 90 paired answers) and beside
 * churn at a typical plan (400 paired answers). Rows: identical models (false alarms, target
 * ≤ the rule's share), identical models on a server slowing down 30% over the run with
 * max-slowdown 0.10, decode slowdowns of 10, 25 and 50% at the default max-slowdown 0.25
 * (the first two within the limit: they must not fail more often than the share), the same
 * slowdowns with max-slowdown 0 (any sure slowdown fails: the power itself), doubled answers.
 */
import { type BuiltInConfig, CHECKS } from '../../src/checks/builtIn.js';
import { foldRecords } from '../../src/checks/fold.js';
import { TESTED_RULES } from '../../src/checks/speed/analyse.js';
import { speedCheck } from '../../src/checks/speed/index.js';
import { SPEED_PROMPTS } from '../../src/checks/speed/plan.js';
import { type CheckContext, checkFalseAlarmBudget } from '../../src/checks/types.js';
import { configSchema } from '../../src/config/schema.js';
import { createRng, mixSeed } from '../../src/stats/prng.js';
import { wilsonInterval } from '../../src/stats/wilson.js';
import { SPEED_MODELS, type SpeedTruth, speedLog } from './speedGenerator.js';
import type { CheckOc, OcOptions, OcRow } from './types.js';

interface Scenario {
  name: string;
  kind: OcRow['kind'];
  truth: Omit<SpeedTruth, 'items' | 'samples' | 'sigma'>;
  /** The rule whose failures are counted. */
  rule: 'slowdown' | 'prompt-slowdown' | 'verbosity';
  gate?: Record<string, number>;
  /**
   * 'share': at most the rule's share of false fails; a number: at least this power;
   * 'measured': the power at this size is reported, with no target.
   */
  target: 'share' | number | 'measured';
  /** Only at these many answers (the sizes below); absent: at every size. */
  sizes?: number[];
}

const SIZES = [
  { label: 'alone, 90 answers', items: 90, checks: ['speed'] },
  { label: 'beside churn, 400 answers', items: 400, checks: ['churn', 'speed'] },
];

const SCENARIOS: Scenario[] = [
  { name: 'identical', kind: 'no change', truth: {}, rule: 'slowdown', target: 'share' },
  { name: 'identical', kind: 'no change', truth: {}, rule: 'prompt-slowdown', target: 'share' },
  { name: 'identical', kind: 'no change', truth: {}, rule: 'verbosity', target: 'share' },
  {
    name: 'identical, server 30% slower by the end, max-slowdown 0.10',
    kind: 'no change',
    truth: { drift: 1.3 },
    rule: 'slowdown',
    gate: { maxSlowdown: 0.1 },
    target: 'share',
  },
  {
    name: 'identical, 30% drift, one model after the other (no blocks), max-slowdown 0.10',
    kind: 'no change',
    truth: { drift: 1.3, blocks: 1 },
    rule: 'slowdown',
    gate: { maxSlowdown: 0.1 },
    target: 'share',
  },
  ...[1.1, 1.25].map(
    (ratio): Scenario => ({
      name: `decode ×${ratio}, within max-slowdown 0.25`,
      kind: 'no change',
      truth: { decodeRatio: ratio },
      rule: 'slowdown',
      target: 'share',
    }),
  ),
  {
    name: 'decode ×1.5, max-slowdown 0.25',
    kind: 'known effect',
    truth: { decodeRatio: 1.5 },
    rule: 'slowdown',
    target: 0.8,
  },
  // A 10% slowdown is within the spread of 90 answers at σ = 0.25: its power is only shown.
  ...[1.1, 1.25, 1.5].map(
    (ratio): Scenario => ({
      name: `decode ×${ratio}, max-slowdown 0`,
      kind: 'known effect',
      truth: { decodeRatio: ratio },
      rule: 'slowdown',
      gate: { maxSlowdown: 0 },
      target: ratio === 1.1 ? 'measured' : 0.8,
    }),
  ),
  {
    name: 'decode ×1.1, max-slowdown 0',
    kind: 'known effect',
    truth: { decodeRatio: 1.1 },
    rule: 'slowdown',
    gate: { maxSlowdown: 0 },
    target: 0.8,
    sizes: [400],
  },
  {
    name: 'answers ×2, max-verbosity-rise 0.5',
    kind: 'known effect',
    truth: { lengthRatio: 2 },
    rule: 'verbosity',
    target: 0.9,
  },
];

function context(checks: string[], gate: Record<string, number> = {}): CheckContext<BuiltInConfig> {
  const config = configSchema(CHECKS).parse({ models: SPEED_MODELS, checks, speed: { gate } });
  return { config, baseDir: process.cwd(), models: { ...SPEED_MODELS } };
}

/** Runs (of `runs`) in which `rule` fails on records drawn from `truth`; and whether any rule did, per run. */
export function speedFailures(
  truth: SpeedTruth,
  setting: { checks: string[]; gate?: Record<string, number> },
  rule: string,
  runs: number,
  seed: number,
): { hits: number; anyFails: boolean[] } {
  const ctx = context(setting.checks, setting.gate);
  const rng = createRng(mixSeed(seed));
  let hits = 0;
  const anyFails: boolean[] = [];
  for (let run = 0; run < runs; run++) {
    const section = foldRecords(speedCheck.fold, speedLog(truth, rng), SPEED_PROMPTS, ctx);
    const findings = speedCheck.gate(section, ctx);
    if (findings.some((f) => f.severity === 'fail' && f.rule === rule)) hits++;
    anyFails.push(findings.some((f) => f.severity === 'fail'));
  }
  return { hits, anyFails };
}

export async function operatingCharacteristics(options: OcOptions): Promise<CheckOc> {
  const rows: OcRow[] = [];
  const noChangeGateFails: boolean[] = [];
  for (const [s, size] of SIZES.entries()) {
    for (const [k, scenario] of SCENARIOS.entries()) {
      if (scenario.sizes && !scenario.sizes.includes(size.items)) continue;
      if (scenario.target === 'measured' && size.items >= 400) continue;
      const share = checkFalseAlarmBudget(context(size.checks).config) / TESTED_RULES;
      const truth = { items: size.items, samples: 1, sigma: 0.25, ...scenario.truth };
      const { hits, anyFails } = speedFailures(
        truth,
        { checks: size.checks, gate: scenario.gate },
        scenario.rule,
        options.runs,
        options.seed * 1000 + s * 100 + k,
      );
      if (k === 0 && s === 1) noChangeGateFails.push(...anyFails);
      const rate = hits / options.runs;
      rows.push({
        check: 'speed',
        rule: scenario.rule,
        scenario: `${scenario.name} (${size.label})`,
        kind: scenario.kind,
        runs: options.runs,
        hits,
        target:
          scenario.target === 'share'
            ? `≤ ${(100 * share).toFixed(2)}%`
            : scenario.target === 'measured'
              ? 'shown'
              : `≥ ${(100 * scenario.target).toFixed(0)}%`,
        met:
          scenario.target === 'share'
            ? wilsonInterval(hits, options.runs).low <= share
            : scenario.target === 'measured' || rate >= scenario.target,
      });
    }
  }
  return { rows, noChangeGateFails };
}

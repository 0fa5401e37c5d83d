/**
 * The speed gate rules: each fails when the figure's one-sided lower bound (candidate ÷
 * baseline) clears 1 + its limit, so two identical models fail a rule in at most its share
 * of the check's false-alarm budget, whatever the noise's shape.
 */
import { camelToKebab } from '../../config/keys.js';
import { interval, percent, trimmed } from '../../text/format.js';
import type { GateFinding, GateRuleCard } from '../types.js';
import type { PairedRatio, SpeedSection } from './section.js';
import type { SpeedSettings } from './settings.js';

interface SpeedRule {
  id: 'slowdown' | 'prompt-slowdown' | 'verbosity';
  what: string;
  /** Its limit in `speed.gate`. */
  setting: 'maxSlowdown' | 'maxPromptSlowdown' | 'maxVerbosityRise';
  figure: 'decode' | 'prompt' | 'verbosity';
}

const SPEED_RULES: readonly SpeedRule[] = [
  { id: 'slowdown', what: 'decode time per token', setting: 'maxSlowdown', figure: 'decode' },
  {
    id: 'prompt-slowdown',
    what: 'prompt processing time per token',
    setting: 'maxPromptSlowdown',
    figure: 'prompt',
  },
  {
    id: 'verbosity',
    what: 'output tokens per answer',
    setting: 'maxVerbosityRise',
    figure: 'verbosity',
  },
];

const ratioOf = (rule: SpeedRule, section: SpeedSection): PairedRatio | null =>
  section.comparison?.[rule.figure] ?? null;

export const times = (v: number) => `×${trimmed(v, 2)}`;

export function gateSpeed(section: SpeedSection, gate: SpeedSettings['gate']): GateFinding[] {
  const findings: GateFinding[] = [];
  if (section.notice) {
    findings.push({ check: 'speed', rule: 'slowdown', severity: 'info', message: section.notice });
  }
  if (section.excluded > 0) {
    findings.push({
      check: 'speed',
      rule: 'slowdown',
      severity: 'info',
      message: `${section.excluded} answers with impossible timings (negative, out of range or longer than the whole request) were left out`,
      values: { excluded: section.excluded },
    });
  }
  findings.push(...residencyFindings(section, gate));
  for (const rule of SPEED_RULES) {
    const ratio = ratioOf(rule, section);
    const limit = 1 + gate[rule.setting];
    if (!ratio || ratio.low === null || ratio.low <= limit) continue;
    findings.push({
      check: 'speed',
      rule: rule.id,
      severity: 'fail',
      message: `${rule.what}: the candidate's is ${times(ratio.ratio)} the baseline's ${interval(ratio.low, ratio.high, times)} over ${ratio.items} items, surely above the limit ${times(limit)} (speed.gate.${camelToKebab(rule.setting)})`,
      values: { ratio: ratio.ratio, low: ratio.low, high: ratio.high, limit, items: ratio.items },
    });
  }
  return findings;
}

export function speedRules(
  section: SpeedSection,
  gate: SpeedSettings['gate'],
  alpha: number,
): GateRuleCard[] {
  const measured = judged(section).model?.residency
    ? 'a reading of the server (/api/ps), no sampling noise'
    : 'not measured in this run (the server does not report where the model sits)';
  const residencyCards: GateRuleCard[] = [
    {
      check: 'speed',
      rule: 'offload',
      tests:
        gate.offload === 'off'
          ? 'off (speed.gate.offload)'
          : `the candidate partly in system memory while the baseline was not (${gate.offload})`,
      falseAlarmRate: 0,
      falseAlarmBasis: measured,
      detects: 'any share of the model outside GPU memory',
    },
    {
      check: 'speed',
      rule: 'vram',
      tests:
        gate.maxVramMib === undefined
          ? 'no limit set (speed.gate.max-vram-mib)'
          : `the candidate's GPU memory above ${gate.maxVramMib} MiB`,
      falseAlarmRate: 0,
      falseAlarmBasis: measured,
      detects: 'any excess over the limit',
    },
  ];
  return [...statisticalCards(section, gate, alpha), ...residencyCards];
}

function statisticalCards(
  section: SpeedSection,
  gate: SpeedSettings['gate'],
  alpha: number,
): GateRuleCard[] {
  return SPEED_RULES.map((rule) => {
    const ratio = ratioOf(rule, section);
    const limit = 1 + gate[rule.setting];
    // The bound sits w = log(ratio / low) below the estimate, about z_α standard errors (z_α
    // near 2.4 at these levels); the bound clears the limit in 80% of runs once the true log
    // ratio is w + 0.84·w/2.4 ≈ 1.35·w above it.
    const width = ratio?.low ? (ratio.ratio / ratio.low) ** 1.35 : null;
    return {
      check: 'speed',
      rule: rule.id,
      tests: `the candidate's ${rule.what} is more than ${times(limit)} the baseline's (paired over items)`,
      falseAlarmRate: alpha,
      falseAlarmBasis: `design level: one-sided distribution-free bound on the median item ratio${rule.id === 'verbosity' ? '' : ', half the level for the drift of the server over the run'} (${percent(alpha, 2)})`,
      detects:
        width === null
          ? 'not measured in this run'
          : `a ratio of about ${times(limit * width)} at this run's spread`,
    };
  });
}

/** The judged model: the candidate, or the baseline alone in a single-model run. */
function judged(section: SpeedSection) {
  const [base, cand] = section.models;
  return { base: cand ? base : undefined, model: cand ?? base };
}

function residencyFindings(section: SpeedSection, gate: SpeedSettings['gate']): GateFinding[] {
  const findings: GateFinding[] = [];
  const { base, model } = judged(section);
  const r = model?.residency;
  if (!model || !r) return findings;
  const baseShare = base?.residency?.offloadedShare;
  if (gate.offload !== 'off' && base && r.offloadedShare > 0 && baseShare === 0) {
    findings.push({
      check: 'speed',
      rule: 'offload',
      severity: gate.offload,
      message: `${model.model} is ${percent(r.offloadedShare, 0)} in system memory (not on the GPU) while ${base.model} was wholly in GPU memory: it decodes on the CPU in part (speed.gate.offload)`,
      values: { offloadedShare: r.offloadedShare },
    });
  }
  if (gate.maxVramMib !== undefined && r.vramMib > gate.maxVramMib) {
    findings.push({
      check: 'speed',
      rule: 'vram',
      severity: 'fail',
      message: `${model.model} takes ${trimmed(r.vramMib, 0)} MiB of GPU memory, above the limit of ${gate.maxVramMib} MiB (speed.gate.max-vram-mib)`,
      values: { vramMib: r.vramMib, limit: gate.maxVramMib },
    });
  }
  return findings;
}

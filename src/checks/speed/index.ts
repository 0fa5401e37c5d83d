/**
 * The `speed` check: is the candidate as fast and as brief as the baseline? It times the
 * requests the other checks send (the server's own decode and prompt timings, kept in each
 * record) and plans a few short prompts of its own only when it runs alone. Analysis: per
 * model the median and tail of each figure; paired over items, the candidate ÷ baseline
 * ratio with distribution-free bounds, the server's drift over the run taken out. Gate: a
 * ratio surely above its limit.
 */
import { pagePart } from '../fold.js';
import { type Check, checkFalseAlarmBudget, sectionSchema } from '../types.js';
import { speedFold, TESTED_RULES } from './analyse.js';
import { gateSpeed, speedRules } from './gate.js';
import { planSpeed, SPEED_PROMPTS } from './plan.js';
import { speedHeadline, speedOutputs } from './numbers.js';
import { decodeDropRule, speedNightly } from './nightly.js';
import { speedCollect, speedPage } from './pageData.js';
import { speedRecords } from './records.js';
import { renderSpeedSection, speedGlance } from './report.js';
import type { SpeedSection } from './section.js';
import { type SpeedConfig, speedSettingsSchema } from './settings.js';

type SpeedPrompts = typeof SPEED_PROMPTS;

export const speedCheck: Check<SpeedPrompts, SpeedSection, SpeedConfig> = {
  name: 'speed',
  settingsSchema: speedSettingsSchema,
  optIn: true,
  // Four blocks: paired items run an eighth of the run apart instead of half of it.
  runner: { blocks: 4, residency: true },
  unit: ['answer', 'answers'],
  sectionSchema: sectionSchema<SpeedSection>('speed'),
  load: async () => SPEED_PROMPTS,
  limit: (prompts, n) => prompts.slice(0, Math.max(1, n)),
  plan: (prompts, ctx, model) => planSpeed(prompts, ctx, model),
  fold: speedFold,
  gate: (section, ctx) => gateSpeed(section, ctx.config.speed.gate),
  rules: (section, ctx) =>
    speedRules(section, ctx.config.speed.gate, checkFalseAlarmBudget(ctx.config) / TESTED_RULES),
  maxTimeoutShare: (config) => config.speed.gate.maxTimeoutShare,
  report: { section: renderSpeedSection, glance: speedGlance },
  log: { format: speedRecords, everyCheck: true },
  headline: { fields: speedHeadline, outputs: speedOutputs },
  nightly: { fields: speedNightly, rule: decodeDropRule },
  page: pagePart(speedCollect, speedPage),
  cli: { measures: 'decode speed and answer length' },
};

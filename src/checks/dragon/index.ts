/**
 * The dragon check: calibration of stated confidence in a partially observable maze
 * (protocol dragon-calibration/1, docs/dragon-protocol.md).
 */
import { dragonHeadline, dragonNightly, dragonOutputs } from './report/numbers.js';
import { dragonRecords } from './records.js';
import { dragonCommands } from './commands.js';
import { eceDriftRule } from './driftRule.js';
import { type DragonConfig, dragonSettingsSchema } from './settings.js';
import { type Check, sectionSchema } from '../types.js';
import { analyseDragon } from './analyse.js';
import { type DragonDefinitions, dragonDefinitions } from './definitions.js';
import { InputError } from '../../errors.js';
import { gateDragon } from './gate.js';
import { planDragon } from './plan.js';
import { promptSha256 } from './prompt.js';
import { dragonReport } from './report/index.js';
import { dragonPage } from './report/page.js';
import { isReferenceModel } from './players.js';
import { dragonRuleCards, ruleFalseAlarmRate } from './rules.js';
import type { DragonSection } from './section.js';
import { keptRecords, pagePart, recordList } from '../fold.js';

const PREVIOUS_REPORT_KEY = 'dragon.gate.previous-report';

export const dragonCheck: Check<DragonDefinitions, DragonSection, DragonConfig> = {
  name: 'dragon',
  settingsSchema: dragonSettingsSchema,
  unit: ['game', 'games'],
  sectionSchema: sectionSchema<DragonSection>('dragon'),
  load: async (ctx) => {
    if (ctx.models.candidate && ctx.config.dragon.gate.previousReport) {
      throw new InputError(
        `${PREVIOUS_REPORT_KEY}: a previous report is compared with in nightly mode (one model, no candidate); this config has candidate ${ctx.models.candidate}. Remove the candidate for a nightly run, or the previous report for a baseline-vs-candidate run.`,
      );
    }
    return dragonDefinitions(ctx.config.dragon, ruleFalseAlarmRate(ctx.config));
  },
  limit: (definitions, n) => ({ ...definitions, seeds: definitions.seeds.slice(0, n) }),
  plan: (definitions, ctx, model) =>
    planDragon(definitions, model, {
      temperature: ctx.config.dragon.temperature,
      seed: ctx.config.dragon.seed,
      numCtx: ctx.config.runner.numCtx,
      numPredict: ctx.config.dragon.numPredict,
      think: ctx.config.dragon.think,
    }),
  // A game's decisions are replayed in order: its records are kept until the fold finishes.
  fold: keptRecords((records, definitions, ctx) => analyseDragon(records, definitions, ctx.models)),
  gate: (section, ctx, previous) => gateDragon(section, ctx.config.dragon.gate, previous),
  rules: (section, ctx) => dragonRuleCards(section, ctx),
  maxTimeoutShare: (config) => config.dragon.gate.maxTimeoutShare,
  report: dragonReport,
  log: {
    format: dragonRecords,
    staleReason:
      'the prompt and options match, so the maze differs (dragon.walls, or another protocol version)',
    isControl: isReferenceModel,
  },
  provenance: {
    promptHashes: (config) => ({
      [`dragon (hints: ${config.dragon.hints})`]: promptSha256(config.dragon.hints),
    }),
  },
  headline: { fields: dragonHeadline, outputs: dragonOutputs },
  nightly: {
    fields: dragonNightly,
    rule: eceDriftRule,
    previousReport: {
      key: PREVIOUS_REPORT_KEY,
      read: (config) => config.dragon.gate.previousReport,
      write: (config, file) => ({
        ...config,
        dragon: { ...config.dragon, gate: { ...config.dragon.gate, previousReport: file } },
      }),
    },
  },
  page: pagePart(recordList(), dragonPage),
  cli: {
    measures: 'calibration of stated confidence in a maze game',
    commands: dragonCommands,
    starter: () => ({ settings: { seeds: '0-9' }, files: [] }),
  },
};

/**
 * The churn check: which items an upgrade reliably improved or broke, in which domains, and
 * whether the net gain hides losses.
 */
import { churnHeadline, churnNightly, churnOutputs } from './report/numbers.js';
import { churnRecords } from './records.js';
import { churnImports } from './commands.js';
import { createHash } from 'node:crypto';
import { definitionsFile } from '../definitionsFile.js';
import { BUILT_IN_ITEMS, type ChurnConfig, churnSettingsSchema, samplingOf } from './settings.js';
import { gateChurn } from './gate.js';
import { type ChurnItem, loadItemsFile } from './items.js';
import { prepareGraders } from './openItems.js';
import { planChurn } from './plan.js';
import { adaptiveNotes, ChurnStages } from './stagedPlan.js';
import { CHURN_SYSTEM_PROMPT, PROMPT_VERSION } from './prompt.js';
import { churnReport } from './report/index.js';
import { answerFold, churnPage } from './report/page.js';
import { churnRuleCards } from './rules.js';
import { type ChurnSection, churnSectionSchema } from './section.js';

import { starterFile } from '../starter.js';
import type { Check } from '../types.js';
import { churnFold } from './fold.js';
import { pagePart } from '../fold.js';

export interface ChurnDefinitions {
  items: ChurnItem[];
  /** The item file as written in the config. */
  file: string;
  warnings: string[];
}

const STARTER_ITEMS = 'items/items.yml';

export const churnCheck: Check<ChurnDefinitions, ChurnSection, ChurnConfig> = {
  name: 'churn',
  settingsSchema: churnSettingsSchema,
  unit: ['sample', 'samples'],
  sectionSchema: churnSectionSchema,
  async load(ctx) {
    const file = ctx.config.churn.items;
    const loaded = loadItemsFile(
      definitionsFile(ctx, {
        key: 'churn.items',
        value: file,
        builtIn: BUILT_IN_ITEMS,
        what: 'items file',
        expected: 'a .jsonl, .json or .yaml file of multiple-choice or open items (docs/items.md)',
      }),
      file,
    );
    // Grader modules are loaded now: one that cannot be is bad input before any request.
    await prepareGraders(loaded.items);
    return { items: loaded.items, file, warnings: loaded.warnings };
  },
  limit(definitions, n) {
    return { ...definitions, items: definitions.items.slice(0, n) };
  },
  plan(definitions, ctx, model) {
    return planChurn(definitions.items, ctx.config, model);
  },
  fold: churnFold,
  gate(section, ctx) {
    return gateChurn(section, ctx.config.churn);
  },
  rules(section, ctx) {
    return churnRuleCards(section, ctx);
  },
  maxTimeoutShare: (config) => config.churn.gate.maxTimeoutShare,
  report: churnReport,
  log: { format: churnRecords },
  adaptive: {
    growth(definitions, ctx) {
      const { estimator } = ctx.config.churn;
      if (samplingOf(ctx.config.churn) !== 'adaptive' || estimator !== 'sampled') return null;
      return new ChurnStages(
        definitions.items,
        ctx.config,
        ctx.models.baseline,
        ctx.models.candidate,
      );
    },
    planNotes: adaptiveNotes,
  },
  provenance: {
    warnings: (definitions) => definitions.warnings,
    promptHashes: () => ({
      [`churn (${PROMPT_VERSION}, system prompt)`]: createHash('sha256')
        .update(CHURN_SYSTEM_PROMPT)
        .digest('hex'),
    }),
  },
  headline: { fields: churnHeadline, outputs: churnOutputs },
  nightly: { fields: churnNightly },
  page: pagePart(answerFold, churnPage),
  cli: {
    measures: 'item-level reliable change',
    imports: churnImports,
    overrides: [
      {
        name: 'samples',
        value: '<K>',
        help: 'churn: stochastic samples per item and model (churn.samples)',
        setting: ['samples'],
        parse: 'integer',
      },
    ],
    starter: () => ({
      settings: { items: STARTER_ITEMS },
      files: [
        starterFile(
          STARTER_ITEMS,
          [
            "Starter items (model-gate's built-in set): replace them with your own.",
            'Format: docs/items.md in the model-gate package.',
          ],
          'fixtures',
          'items',
          'general.yml',
        ),
      ],
    }),
  },
};

/**
 * The `personas` check: do the assistants declared with different system prompts still give
 * answers that can be told apart? Plan: every assistant answers every probe. Analysis:
 * leave-one-out attribution of each answer to the nearest assistant centroid. Gate: an
 * assistant no longer recognised, or two assistants merged by the candidate.
 */
import { personasHeadline, personasNightly, personasOutputs } from './report/numbers.js';
import { personasRecords } from './records.js';
import { definitionsFile } from '../definitionsFile.js';
import { BUILT_IN_CATALOGUE, type PersonasConfig, personasSettingsSchema } from './settings.js';
import { type Check, checkFalseAlarmBudget, sectionSchema } from '../types.js';
import { analysePersonas } from './analyse.js';
import { type PersonasCatalogue, readCatalogue } from './catalogue.js';
import { planPersonas } from './plan.js';
import { gatePersonas } from './gate.js';
import { personasReport } from './report/index.js';
import { personasPage } from './report/page.js';
import { personasRules } from './rules.js';
import type { PersonasSection } from './section.js';
import { starterFile } from '../starter.js';
import { keptRecords, pagePart, recordList } from '../fold.js';

export type PersonasDefinitions = PersonasCatalogue;

const STARTER_CATALOGUE = 'personas/catalogue.yml';

export const personasCheck: Check<PersonasDefinitions, PersonasSection, PersonasConfig> = {
  name: 'personas',
  settingsSchema: personasSettingsSchema,
  unit: ['answer', 'answers'],
  sectionSchema: sectionSchema<PersonasSection>('personas'),
  load: (ctx) => {
    const file = ctx.config.personas.catalogue;
    const found = definitionsFile(ctx, {
      key: 'personas.catalogue',
      value: file,
      builtIn: BUILT_IN_CATALOGUE,
      what: 'persona catalogue',
      expected: 'a YAML file with language, assistants and probes (docs/personas-catalogue.md)',
    });
    return readCatalogue(found, file);
  },
  // An answer is attributed from its assistant's other answers: at least two probes.
  limit: (catalogue, n) => ({ ...catalogue, probes: catalogue.probes.slice(0, Math.max(2, n)) }),
  plan: (catalogue, ctx, model) =>
    planPersonas(catalogue, ctx.config.personas, ctx.config.runner.numCtx, model),
  // An assistant's answers are compared with every other's: kept until the fold finishes.
  fold: keptRecords((records, catalogue, ctx) =>
    analysePersonas(
      records,
      catalogue,
      ctx.config.personas,
      ctx.models,
      checkFalseAlarmBudget(ctx.config),
    ),
  ),
  gate: (section, ctx, previous) =>
    gatePersonas(section, ctx.config.personas.gate, checkFalseAlarmBudget(ctx.config), previous),
  rules: (section, ctx) =>
    personasRules(section, ctx.config.personas, checkFalseAlarmBudget(ctx.config)),
  maxTimeoutShare: (config) => config.personas.gate.maxTimeoutShare,
  report: personasReport,
  log: { format: personasRecords },
  headline: { fields: personasHeadline, outputs: personasOutputs },
  nightly: { fields: personasNightly },
  page: pagePart(recordList(), personasPage),
  cli: {
    measures: 'persona distinctiveness',
    starter: () => ({
      settings: { catalogue: STARTER_CATALOGUE },
      files: [
        starterFile(
          STARTER_CATALOGUE,
          [
            'Starter persona catalogue: declare your own assistants and probes.',
            'Format: docs/personas-catalogue.md in the model-gate package.',
          ],
          'fixtures',
          'personas',
          'catalogue.yml',
        ),
      ],
    }),
  },
};

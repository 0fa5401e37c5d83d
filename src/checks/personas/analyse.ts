/**
 * The personas analysis: a pure function of the sample log and the catalogue. Embedding
 * vectors, when asked for, are data too: they are stored with each answer at collection
 * time (record field `vector`), so re-analysing a log needs no server.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import type { ModelPair } from '../types.js';
import { collectAnswers } from './answers.js';
import type { PersonasCatalogue } from './catalogue.js';
import { compareModels } from './comparison.js';
import { analyseModel } from './modelResult.js';
import type { PersonasSection } from './section.js';
import type { PersonasSettings } from './settings.js';

export function analysePersonas(
  records: readonly SampleRecord[],
  catalogue: PersonasCatalogue,
  settings: Pick<PersonasSettings, 'vectors' | 'permutations' | 'seed'>,
  models: ModelPair,
): PersonasSection {
  const roles = [
    { role: 'baseline' as const, model: models.baseline },
    ...(models.candidate ? [{ role: 'candidate' as const, model: models.candidate }] : []),
  ];
  const results = roles.map(({ role, model }) =>
    analyseModel(collectAnswers(records, catalogue, model), catalogue, {
      role,
      model,
      vectors: settings.vectors,
      permutations: settings.permutations,
      seed: settings.seed,
    }),
  );
  const [baseline, candidate] = results;
  return {
    check: 'personas',
    catalogue: {
      file: catalogue.file,
      language: catalogue.language,
      assistants: catalogue.assistants.map(({ name, control }) => ({ name, control })),
      probes: catalogue.probes,
      sha256: catalogue.sha256,
    },
    vectors: settings.vectors,
    models: results,
    comparison:
      baseline && candidate ? compareModels(catalogue.assistants, baseline, candidate) : null,
    notes: results.flatMap((r) => r.notes),
  };
}

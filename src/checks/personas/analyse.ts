/**
 * The personas analysis: a pure function of the sample log and the catalogue. Embedding
 * vectors, when asked for, are data too: they are stored with each answer at collection
 * time (record field `vector`), so re-analysing a log needs no server.
 */
import { seedFromText } from '../../stats/prng.js';
import { stopWords as stopWordList } from '../../stats/text/stopWords.js';
import { tfidf } from '../../stats/text/tfidf.js';
import { tokenise } from '../../stats/text/tokenise.js';
import { normalise, type Vector } from '../../stats/text/vectors.js';
import type { SampleRecord } from '../../sampleLog/index.js';
import type { ModelPair } from '../types.js';
import { collectAnswers, type ModelAnswers } from './answers.js';
import type { PersonasCatalogue } from './catalogue.js';
import { compareModels } from './comparison.js';
import { analyseModel } from './modelResult.js';
import type { PersonasModelResult, PersonasSection } from './section.js';
import { type PersonasSettings, personasSettingsSchema } from './settings.js';
import { swapTest } from './swapTest.js';
import { personasLevels } from './tests.js';

export function analysePersonas(
  records: readonly SampleRecord[],
  catalogue: PersonasCatalogue,
  settings: Pick<PersonasSettings, 'vectors' | 'permutations' | 'seed'> &
    Partial<Pick<PersonasSettings, 'samples' | 'gate'>>,
  models: ModelPair,
  /** The check's share of the run's false-alarm budget (checkFalseAlarmBudget). */
  budget: number,
): PersonasSection {
  const roles = [
    { role: 'baseline' as const, model: models.baseline },
    ...(models.candidate ? [{ role: 'candidate' as const, model: models.candidate }] : []),
  ];
  const collected = roles.map(({ model }) =>
    collectAnswers(records, catalogue, model, settings.samples ?? 1),
  );
  const results = roles.map(({ role, model }, k) =>
    analyseModel(collected[k] as ModelAnswers, catalogue, {
      role,
      model,
      vectors: settings.vectors,
      permutations: settings.permutations,
      seed: settings.seed,
    }),
  );
  const [baseline, candidate] = results;
  const [baselineAnswers, candidateAnswers] = collected;
  let comparison = null;
  if (baseline && candidate && baselineAnswers && candidateAnswers) {
    const levels = personasLevels(
      catalogue.assistants,
      settings.gate ?? personasSettingsSchema.shape.gate.parse({}),
      budget,
    );
    const swap = swapTest({
      assistants: catalogue.assistants,
      baseline: baselineAnswers.answers,
      candidate: candidateAnswers.answers,
      rows: jointRows(catalogue, baselineAnswers, candidateAnswers, baseline, candidate),
      swaps: settings.permutations,
      seed: seedFromText(`personas-swap|${settings.seed}|${baseline.model}|${candidate.model}`),
    });
    comparison = compareModels(catalogue.assistants, baseline, candidate, levels, swap);
  }
  return {
    check: 'personas',
    catalogue: {
      file: catalogue.file,
      language: catalogue.language,
      languages: catalogue.languages,
      assistants: catalogue.assistants.map(({ name, control }) => ({ name, control })),
      probes: catalogue.probes,
      sha256: catalogue.sha256,
    },
    vectors: settings.vectors,
    samples: settings.samples ?? 1,
    models: results,
    comparison,
    notes: results.flatMap((r) => r.notes),
  };
}

/**
 * Both models' answers in one vector space, baseline first: the stored embeddings when both
 * models were analysed with them, otherwise TF-IDF over the answers of both.
 */
function jointRows(
  catalogue: PersonasCatalogue,
  baselineAnswers: ModelAnswers,
  candidateAnswers: ModelAnswers,
  baseline: PersonasModelResult,
  candidate: PersonasModelResult,
): Vector[] {
  const answers = [...baselineAnswers.answers, ...candidateAnswers.answers];
  if (baseline.vectors === 'embed' && candidate.vectors === 'embed') {
    return answers.map((a) => normalise(a.vector ?? []));
  }
  const stopWords = stopWordList(catalogue.languages, catalogue.extraStopWords);
  return tfidf(answers.map((a) => tokenise(a.text, stopWords))).rows;
}

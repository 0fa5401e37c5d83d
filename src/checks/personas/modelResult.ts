/**
 * Everything the report says about one model: the answers turned into vectors (TF-IDF, or
 * the embeddings stored with them), then discriminability, the naive overlap for contrast,
 * prompt vs answer distances and the controls.
 */
import { seedFromText } from '../../stats/prng.js';
import { jaccardMatrix } from '../../stats/text/jaccard.js';
import { stopWords as stopWordList } from '../../stats/text/stopWords.js';
import { tfidf } from '../../stats/text/tfidf.js';
import { tokenise } from '../../stats/text/tokenise.js';
import { normalise, type Vector } from '../../stats/text/vectors.js';
import type { ModelAnswers } from './answers.js';
import type { PersonasCatalogue } from './catalogue.js';
import { evaluateControls } from './controls.js';
import { measureDiscriminability } from './discriminability.js';
import { compareDistances } from './distances.js';
import type { PersonasModelResult } from './section.js';
import { num } from '../../text/format.js';

export interface ModelResultOptions {
  role: PersonasModelResult['role'];
  model: string;
  vectors: 'tfidf' | 'embed';
  permutations: number;
  /** Base seed of the permutation null (the personas seed setting). */
  seed: number;
}

export function analyseModel(
  collected: ModelAnswers,
  catalogue: PersonasCatalogue,
  options: ModelResultOptions,
): PersonasModelResult {
  const notes: string[] = [];
  const stopWords = stopWordList(catalogue.languages, catalogue.extraStopWords);
  const { answers } = collected;
  const tokens = answers.map((a) => tokenise(a.text, stopWords));

  let vectors: 'tfidf' | 'embed' = 'tfidf';
  let rows: Vector[];
  const embedded = embeddingRows(collected);
  if (options.vectors === 'embed' && embedded.rows) {
    vectors = 'embed';
    rows = embedded.rows;
  } else {
    if (options.vectors === 'embed') notes.push(embedded.why);
    rows = tfidf(tokens).rows;
  }

  notes.push(...collectionNotes(collected, options.model, tokens, vectors));

  // The seed mixes in the model so baseline and candidate draw independent relabellings.
  const seed = seedFromText(`personas-permutation|${options.seed}|${options.model}`);
  const measure = measureDiscriminability({
    assistants: catalogue.assistants,
    probes: catalogue.probes,
    answers,
    rows,
    permutations: options.permutations,
    seed,
  });

  const byAssistant = catalogue.assistants.map((_, i) =>
    answers.map((a, k) => ({ a, k })).filter(({ a }) => a.assistant === i),
  );
  const vocabularies = byAssistant.map((list) => new Set(list.flatMap(({ k }) => tokens[k] ?? [])));
  const answersPerAssistant = byAssistant.map((list) => list.length);

  // Each answer's attribution and similarity go to the attribution rows, not the section.
  const { attributed, similarity, ...section } = measure;
  const { accuracy, chance, permutation } = section;
  if (accuracy !== null && accuracy < chance && permutation.meanAccuracy !== null) {
    notes.push(
      `${options.model}: accuracy ${num(accuracy)} is below chance ${num(chance)}, which is expected of leave-one-out attribution: an answer's own centroid lacks it, the others keep an answer to the same probe. The reference is the within-probe permutation null's mean (${num(permutation.meanAccuracy)}).`,
    );
  }

  return {
    role: options.role,
    model: options.model,
    vectors,
    answers: collected.tally,
    attributed: answers.length,
    ...section,
    vocabularyOverlap: jaccardMatrix(vocabularies),
    distances: compareDistances(
      catalogue.assistants,
      stopWords,
      byAssistant.map((list) => list.map(({ k }) => rows[k] ?? [])),
    ),
    controls: evaluateControls(catalogue.assistants, measure.confusion, answersPerAssistant),
    attributions: attributionRows(collected, catalogue, attributed, similarity),
    notes,
  };
}

/** Stored embeddings as unit rows, or why they cannot be used. */
function embeddingRows(collected: ModelAnswers): { rows: Vector[] | null; why: string } {
  const { answers } = collected;
  const lacking = answers.filter((a) => a.vector === null).length;
  if (answers.length === 0) return { rows: null, why: 'no valid answer to embed' };
  if (lacking > 0) {
    return {
      rows: null,
      why: `vectors: embed was asked but ${lacking} of ${answers.length} answers have no stored embedding; TF-IDF was used instead`,
    };
  }
  const length = answers[0]?.vector?.length ?? 0;
  if (answers.some((a) => a.vector?.length !== length)) {
    return {
      rows: null,
      why: 'vectors: embed was asked but the stored embeddings differ in length (several embedding models?); TF-IDF was used instead',
    };
  }
  return { rows: answers.map((a) => normalise(a.vector ?? [])), why: '' };
}

/** What the log lacked or held beyond the catalogue, and answers with no counted word. */
function collectionNotes(
  collected: ModelAnswers,
  model: string,
  tokens: readonly string[][],
  vectors: 'tfidf' | 'embed',
): string[] {
  const notes: string[] = [];
  if (collected.stale > 0) {
    notes.push(
      `${collected.stale} record(s) of ${model} were written for prompts that are no longer in the catalogue and were left out`,
    );
  }
  if (collected.extra > 0) {
    notes.push(
      `${collected.extra} record(s) of ${model} are samples beyond the configured count and were left out`,
    );
  }
  const missing = collected.tally.expected - collected.tally.found;
  if (missing > 0) {
    notes.push(
      `${missing} of ${collected.tally.expected} answers of ${model} are not in the sample log`,
    );
  }
  const empty = tokens.filter((t) => t.length === 0).length;
  if (empty > 0 && vectors === 'tfidf') {
    notes.push(`${empty} answer(s) of ${model} hold no counted word (only short or stop words)`);
  }
  return notes;
}

function attributionRows(
  { answers }: ModelAnswers,
  catalogue: PersonasCatalogue,
  attributed: readonly (number | null)[],
  similarity: readonly (number | null)[],
): PersonasModelResult['attributions'] {
  return answers.map((a, k) => {
    const to = attributed[k];
    return {
      assistant: catalogue.assistants[a.assistant]?.name ?? '',
      probe: a.probe,
      sample: a.sample,
      attributed: to === null || to === undefined ? null : (catalogue.assistants[to]?.name ?? null),
      similarity: similarity[k] ?? null,
    };
  });
}

/**
 * The personas check's part of report.html: each model's confusion matrix with the answers
 * behind its cells (which assistant wrote it, whom the analysis attributed it to), the
 * assistants' system prompts and the distance tables. Pure; answer texts share a budget.
 */
import { lengthCap, shorten } from '../../../text/budget.js';
import type { CheckPageInput } from '../../types.js';
import type { PersonasConfig } from '../settings.js';
import { collectAnswers } from '../answers.js';
import type { PersonasCatalogue as PersonasDefinitions } from '../catalogue.js';
import type { PersonasModelResult, PersonasSection } from '../section.js';
import type { PersonasPage, PersonasPageAnswer, PersonasPageModel } from '../page/types.js';

/** Characters of answer text in the page, all models together; and of one answer at most. */
export const ANSWER_BUDGET = 3_000_000;
export const ANSWER_LENGTH = 2_000;
const PROMPT_LENGTH = 4_000;

function pageModel(
  result: PersonasModelResult,
  names: readonly string[],
  answers: PersonasPageAnswer[],
): PersonasPageModel {
  const distances = result.distances;
  return {
    role: result.role,
    model: result.model,
    accuracy: result.accuracy,
    reference: result.permutation.meanAccuracy,
    chance: result.chance,
    confusion: result.confusion,
    recognition: names.map((name) => {
      const r = result.recognition.find((x) => x.assistant === name);
      return { recognised: r?.recognised ?? 0, answers: r?.answers ?? 0 };
    }),
    distances: distances.pairs.map((p) => ({
      a: p.a,
      b: p.b,
      prompt: p.promptDistance,
      answer: p.answerDistance,
      promptRank: p.promptRank,
      answerRank: p.answerRank,
    })),
    spearman: distances.spearman,
    converging: distances.converging.map((pair) => `${pair.a} ↔ ${pair.b}`),
    answers,
  };
}

/** The answers of one model, each with whom the analysis attributed it to. */
function modelAnswers(
  input: CheckPageInput<PersonasDefinitions, PersonasSection, PersonasConfig>,
  result: PersonasModelResult,
  names: readonly string[],
): PersonasPageAnswer[] {
  const attributed = new Map<string, number>();
  for (const a of result.attributions) {
    attributed.set(
      `${a.assistant}\u0000${a.probe}\u0000${a.sample}`,
      a.attributed === null ? -1 : names.indexOf(a.attributed),
    );
  }
  const collected = collectAnswers(
    input.collected,
    input.definitions,
    result.model,
    input.ctx.config.personas.samples,
  );
  return collected.answers.map((answer) => {
    const key = `${names[answer.assistant]}\u0000${answer.probe}\u0000${answer.sample}`;
    return [answer.assistant, answer.probe, answer.sample, attributed.get(key) ?? -1, answer.text];
  });
}

export function personasPage(
  input: CheckPageInput<PersonasDefinitions, PersonasSection, PersonasConfig>,
): PersonasPage {
  const { section, definitions } = input;
  const names = section.catalogue.assistants.map((a) => a.name);
  const perModel = section.models.map((result) => modelAnswers(input, result, names));
  const lengths = perModel.flatMap((answers) => answers.map((a) => a[4].length));
  const cap = Math.min(ANSWER_LENGTH, lengthCap(lengths, ANSWER_BUDGET));
  for (const answers of perModel) for (const a of answers) a[4] = shorten(a[4], cap);
  const prompts = new Map(definitions.assistants.map((a) => [a.name, a.prompt]));
  const notes = [...section.notes];
  if (lengths.some((length) => length > cap)) {
    notes.push(
      `Answers longer than ${cap} characters are shortened to keep this page small; the sample log holds them whole.`,
    );
  }
  return {
    check: 'personas',
    assistants: section.catalogue.assistants.map((a) => {
      const prompt = prompts.get(a.name);
      return {
        name: a.name,
        control: a.control,
        prompt: prompt === undefined ? null : shorten(prompt, PROMPT_LENGTH),
      };
    }),
    probes: section.catalogue.probes,
    samples: section.samples,
    models: section.models.map((result, i) => pageModel(result, names, perModel[i] ?? [])),
    notes,
  };
}

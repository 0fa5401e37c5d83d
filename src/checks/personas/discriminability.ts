/**
 * The honest measure: can the author of an answer be recovered from the other answers?
 * Leave-one-out nearest centroid over the answer vectors, scored against a label-permutation
 * null that relabels answers within each probe, then read per assistant (recognition), per
 * pair (confusions both ways) and per probe.
 *
 * The reference level is the null's mean accuracy, not chance (1 / number of assistants):
 * leaving an answer out removes it from its own author's centroid only, so the other
 * centroids keep an answer to the same probe that its own has lost, and interchangeable
 * assistants score below 1/m (five identical prompts: 0.141 against 0.200). For the same
 * reason a binomial test against 1/m is not valid here and is not computed.
 */
import { createRng } from '../../stats/prng.js';
import {
  attributeFromGram,
  CentroidScorer,
  type Gram,
  gramMatrix,
} from '../../stats/text/nearestCentroid.js';
import type { Vector } from '../../stats/text/vectors.js';
import type { CollectedAnswer } from './answers.js';
import type {
  ConfusedPair,
  PersonasAssistant,
  PersonasModelResult,
  ProbeAccuracy,
  Recognition,
} from './section.js';

export interface DiscriminabilityInput {
  assistants: readonly PersonasAssistant[];
  probes: readonly string[];
  /** Valid answers; `rows[i]` is the vector of `answers[i]`. */
  answers: readonly CollectedAnswer[];
  rows: readonly Vector[];
  permutations: number;
  seed: number;
}

/**
 * What one model's answers show: the section's own fields (one definition, in section.ts), plus
 * each answer's attribution and similarity, which the swap test and the controls read.
 */
export type Discriminability = Pick<
  PersonasModelResult,
  | 'correct'
  | 'accuracy'
  | 'chance'
  | 'permutation'
  | 'confusion'
  | 'unattributed'
  | 'recognition'
  | 'confusedPairs'
  | 'mostConfusedPair'
  | 'probes'
> & {
  attributed: (number | null)[];
  similarity: (number | null)[];
};

export function measureDiscriminability(input: DiscriminabilityInput): Discriminability {
  const { assistants, answers } = input;
  const classCount = assistants.length;
  const labels = answers.map((a) => a.assistant);
  const gram = gramMatrix(input.rows);
  const { attributed, similarity } = attributeFromGram(gram, labels, classCount);

  const confusion = assistants.map(() => new Array<number>(classCount).fill(0));
  const unattributed = new Array<number>(classCount).fill(0);
  let correct = 0;
  attributed.forEach((to, i) => {
    const from = labels[i] ?? 0;
    if (to === null) unattributed[from] = (unattributed[from] ?? 0) + 1;
    else (confusion[from] as number[])[to] = ((confusion[from] as number[])[to] ?? 0) + 1;
    if (to === from) correct++;
  });

  const n = answers.length;
  const chance = classCount > 0 ? 1 / classCount : 0;
  const accuracy = n > 0 ? correct / n : null;
  return {
    attributed,
    similarity,
    correct,
    accuracy,
    chance,
    permutation: permutationNull(
      gram,
      labels,
      answers.map((a) => a.probe),
      classCount,
      accuracy,
      input.permutations,
      input.seed,
    ),
    confusion,
    unattributed,
    recognition: recognitionOf(assistants, confusion, unattributed),
    ...pairsOf(assistants, confusion, unattributed),
    probes: probeAccuracy(input.probes, answers, attributed),
  };
}

/**
 * Shuffle who wrote what and attribute again: the accuracies a catalogue of interchangeable
 * assistants would reach. Labels are shuffled among the answers to the same probe only: under
 * "the assistants are interchangeable", the answers to one question are exchangeable, but
 * answers to different questions are not (a probe pulls its answers together). Shuffling
 * across probes would ignore that pull and make the null too easy to beat or to miss.
 * p = (1 + relabellings at or above the observed accuracy) / (1 + relabellings), so p is
 * never 0 and the observed labelling counts as one of them.
 */
function permutationNull(
  gram: Gram,
  labels: readonly number[],
  probes: readonly number[],
  classCount: number,
  observed: number | null,
  runs: number,
  seed: number,
): Discriminability['permutation'] {
  if (observed === null || labels.length === 0) {
    return { runs: 0, seed, p: null, meanAccuracy: null };
  }
  const strata = new Map<number, number[]>();
  probes.forEach((probe, i) => {
    const members = strata.get(probe) ?? [];
    members.push(i);
    strata.set(probe, members);
  });
  const rng = createRng(seed);
  const scorer = new CentroidScorer(gram, labels.length, classCount);
  const shuffled = [...labels];
  let atLeast = 0;
  let total = 0;
  for (let r = 0; r < runs; r++) {
    for (const members of strata.values()) {
      const drawn = rng.shuffle(members.map((i) => shuffled[i] ?? 0));
      members.forEach((i, k) => {
        shuffled[i] = drawn[k] ?? 0;
      });
    }
    const accuracy = scorer.accuracy(shuffled);
    total += accuracy;
    // Accuracies are multiples of 1/n: compare with a margin far below that step.
    if (accuracy >= observed - 1e-9) atLeast++;
  }
  return {
    runs,
    seed,
    p: (1 + atLeast) / (1 + runs),
    meanAccuracy: runs > 0 ? total / runs : null,
  };
}

function recognitionOf(
  assistants: readonly PersonasAssistant[],
  confusion: readonly (readonly number[])[],
  unattributed: readonly number[],
): Recognition[] {
  return assistants.map((assistant, i) => {
    const row = confusion[i] ?? [];
    const answers = row.reduce((s, v) => s + v, 0) + (unattributed[i] ?? 0);
    const recognised = row[i] ?? 0;
    // A twin's answers given to a control declared on it are the control doing its job.
    const controls = assistants
      .map((other, j) => ({ other, j }))
      .filter(({ other }) => other.control?.of === assistant.name)
      .map(({ j }) => j);
    const upTo = recognised + controls.reduce((s, j) => s + (row[j] ?? 0), 0);
    const share = answers > 0 ? recognised / answers : null;
    return {
      assistant: assistant.name,
      recognised,
      answers,
      share,
      shareUpToControls: answers > 0 ? upTo / answers : null,
    };
  });
}

function pairsOf(
  assistants: readonly PersonasAssistant[],
  confusion: readonly (readonly number[])[],
  unattributed: readonly number[],
): { confusedPairs: ConfusedPair[]; mostConfusedPair: ConfusedPair | null } {
  const answersOf = (i: number): number =>
    (confusion[i] ?? []).reduce((s, v) => s + v, 0) + (unattributed[i] ?? 0);
  const pairs: ConfusedPair[] = [];
  for (let i = 0; i < assistants.length; i++) {
    for (let j = i + 1; j < assistants.length; j++) {
      const a = assistants[i] as PersonasAssistant;
      const b = assistants[j] as PersonasAssistant;
      const aAsB = confusion[i]?.[j] ?? 0;
      const bAsA = confusion[j]?.[i] ?? 0;
      if (aAsB + bAsA === 0) continue;
      pairs.push({
        a: a.name,
        b: b.name,
        aAsB,
        bAsA,
        total: aAsB + bAsA,
        merged: isMerged(aAsB, answersOf(i), bAsA, answersOf(j)),
        expected: isParaphrasePair(a, b),
        control: a.control?.of === b.name || b.control?.of === a.name,
      });
    }
  }
  // Most confused first; equal totals keep catalogue order (the sort is stable).
  pairs.sort((x, y) => y.total - x.total);
  return { confusedPairs: pairs, mostConfusedPair: pairs[0] ?? null };
}

/** Confused both ways, each way in at least half of that assistant's answers. */
export function isMerged(
  aAsB: number,
  answersOfA: number,
  bAsA: number,
  answersOfB: number,
): boolean {
  return aAsB > 0 && bAsA > 0 && 2 * aAsB >= answersOfA && 2 * bAsA >= answersOfB;
}

export function isParaphrasePair(a: PersonasAssistant, b: PersonasAssistant): boolean {
  return (
    (a.control?.kind === 'paraphrase' && a.control.of === b.name) ||
    (b.control?.kind === 'paraphrase' && b.control.of === a.name)
  );
}

function probeAccuracy(
  probes: readonly string[],
  answers: readonly CollectedAnswer[],
  attributed: readonly (number | null)[],
): ProbeAccuracy[] {
  return probes.map((text, probe) => {
    let correct = 0;
    let count = 0;
    answers.forEach((answer, i) => {
      if (answer.probe !== probe) return;
      count++;
      if (attributed[i] === answer.assistant) correct++;
    });
    return { probe, text, correct, answers: count, accuracy: count > 0 ? correct / count : null };
  });
}

/**
 * The symmetric trap: the distance between two system prompts is not the distance between
 * the answers they produce. Both are measured for every pair and ranked; the pairs whose
 * rank moves, and Spearman's ρ between the two lists, say how little reading the prompts
 * tells about the answers.
 */
import { averageRanks, spearman } from '../../stats/spearman.js';
import { jaccard } from '../../stats/text/jaccard.js';
import { tokenise } from '../../stats/text/tokenise.js';
import { cosine, mean, normalise, type Vector } from '../../stats/text/vectors.js';
import type { CatalogueAssistant } from './catalogue.js';
import type { DistanceComparison, PairDistance } from './section.js';

export function compareDistances(
  assistants: readonly CatalogueAssistant[],
  stopWords: ReadonlySet<string>,
  /** Answer vectors per assistant (catalogue order); empty when it has no valid answer. */
  answerVectors: readonly (readonly Vector[])[],
): DistanceComparison {
  const promptWords = assistants.map((a) => new Set(tokenise(a.prompt, stopWords)));
  const centroids = answerVectors.map((rows) => (rows.length > 0 ? normalise(mean(rows)) : null));

  const raw: Omit<PairDistance, 'promptRank' | 'answerRank'>[] = [];
  for (let i = 0; i < assistants.length; i++) {
    for (let j = i + 1; j < assistants.length; j++) {
      const ci = centroids[i];
      const cj = centroids[j];
      raw.push({
        a: assistants[i]?.name ?? '',
        b: assistants[j]?.name ?? '',
        promptDistance: 1 - jaccard(promptWords[i] ?? new Set(), promptWords[j] ?? new Set()),
        answerDistance: ci && cj ? 1 - cosine(ci, cj) : null,
      });
    }
  }

  // Rank 1 = most distant, as a reader scans "which pairs are furthest apart".
  const promptRanks = averageRanks(raw.map((p) => -p.promptDistance));
  const measured = raw.map((p, k) => ({ p, k })).filter(({ p }) => p.answerDistance !== null);
  const answerRankList = averageRanks(measured.map(({ p }) => -(p.answerDistance ?? 0)));
  const answerRanks = new Map(measured.map(({ k }, m) => [k, answerRankList[m] ?? 0]));

  const pairs: PairDistance[] = raw.map((p, k) => ({
    ...p,
    promptRank: promptRanks[k] ?? 0,
    answerRank: answerRanks.get(k) ?? null,
  }));

  // Ranks among measured pairs only, so both rankings run over the same pairs.
  const promptDistances = measured.map(({ p }) => p.promptDistance);
  const answerDistances = measured.map(({ p }) => p.answerDistance ?? 0);
  const {
    moved: movedPairs,
    converging: closer,
    diverging: apart,
  } = compareRankings(promptDistances, answerDistances);
  const named = (list: number[]) =>
    list.map((m) => ({ a: measured[m]?.p.a ?? '', b: measured[m]?.p.b ?? '' }));
  const converging = named(closer);
  const diverging = named(apart);

  return {
    pairs,
    movedPairs,
    spearman: spearman(promptDistances, answerDistances),
    converging,
    diverging,
  };
}

/** Smallest shift, on lists scaled to 0 … 1, for a pair to be named converging or diverging. */
export const MIN_SCALED_SHIFT = 1 / 3;

/** Two distances closer than this are tied (rounding differs between equal sums). */
const TIE = 1e-12;

/** For each value, how many values (itself included) are tied with it. */
function tieSizes(values: readonly number[]): number[] {
  return values.map((v) => values.filter((w) => Math.abs(w - v) <= TIE).length);
}

/**
 * Min–max scaling of a list: a function giving 0 for its smallest value and 1 for its
 * largest, or null everywhere when every value is the same (nothing to compare).
 */
function unitScale(values: readonly number[]): (value: number) => number | null {
  const low = Math.min(...values);
  const high = Math.max(...values);
  if (!(high - low > TIE)) return () => null;
  return (value) => (value - low) / (high - low);
}

/**
 * The two rankings of the same pairs compared (rank 1 = most distant): how many pairs moved,
 * and which converge (prompts apart, answers close) or diverge (the reverse), by index.
 */
export function compareRankings(
  promptDistances: readonly number[],
  answerDistances: readonly number[],
): { moved: number; converging: number[]; diverging: number[] } {
  const promptRanks = averageRanks(promptDistances.map((d) => -d));
  const answerRanks = averageRanks(answerDistances.map((d) => -d));
  const promptTies = tieSizes(promptDistances);
  const answerTies = tieSizes(answerDistances);
  const promptScale = unitScale(promptDistances);
  const answerScale = unitScale(answerDistances);
  const count = promptDistances.length;
  const closestThird = Math.ceil(count / 3);
  const isClose = (rank: number): boolean => rank > count - closestThird;
  const converging: number[] = [];
  const diverging: number[] = [];
  let moved = 0;
  promptDistances.forEach((prompt, m) => {
    const promptRank = promptRanks[m] ?? 0;
    const answerRank = answerRanks[m] ?? 0;
    // A tie group of t pairs shares the mean of t ranks: the pair may sit anywhere in it, so
    // it has moved only when the two groups' rank ranges do not overlap.
    const slack = ((promptTies[m] ?? 1) - 1) / 2 + ((answerTies[m] ?? 1) - 1) / 2;
    if (Math.abs(promptRank - answerRank) > slack + 1e-9) moved++;
    // Magnitude as well as rank: on each list scaled to 0 (closest pair) … 1 (most distant),
    // the answers must sit at least MIN_SCALED_SHIFT closer (or further) than the prompts.
    const p = promptScale(prompt);
    const a = answerScale(answerDistances[m] ?? 0);
    if (p === null || a === null) return;
    if (isClose(answerRank) && !isClose(promptRank) && p - a >= MIN_SCALED_SHIFT) {
      converging.push(m);
    }
    if (isClose(promptRank) && !isClose(answerRank) && a - p >= MIN_SCALED_SHIFT) {
      diverging.push(m);
    }
  });
  return { moved, converging, diverging };
}

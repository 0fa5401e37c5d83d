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
  const promptRanksMeasured = averageRanks(measured.map(({ p }) => -p.promptDistance));
  const count = measured.length;
  const closestThird = Math.ceil(count / 3);
  const isClose = (rank: number): boolean => rank > count - closestThird;
  const converging: { a: string; b: string }[] = [];
  const diverging: { a: string; b: string }[] = [];
  let movedPairs = 0;
  measured.forEach(({ p }, m) => {
    const promptRank = promptRanksMeasured[m] ?? 0;
    const answerRank = answerRankList[m] ?? 0;
    if (promptRank !== answerRank) movedPairs++;
    if (isClose(answerRank) && !isClose(promptRank)) converging.push({ a: p.a, b: p.b });
    if (isClose(promptRank) && !isClose(answerRank)) diverging.push({ a: p.a, b: p.b });
  });

  return {
    pairs,
    movedPairs,
    spearman: spearman(
      measured.map(({ p }) => p.promptDistance),
      measured.map(({ p }) => p.answerDistance ?? 0),
    ),
    converging,
    diverging,
  };
}

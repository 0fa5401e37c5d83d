import { describe, expect, it } from 'vitest';
import { compareRankings } from '../../../src/checks/personas/distances.js';

describe('compareRankings', () => {
  it('does not count a pair inside a tie group as moved', () => {
    // Six pairs: five prompts tied at 1.0 (ranks 1–5 share 3), one closer; answers all distinct
    // in the same order as far as the ties allow. Only the last pair could move, and it did not.
    const prompts = [1, 1, 1, 1, 1, 0.5];
    const answers = [0.9, 0.8, 0.7, 0.6, 0.5, 0.1];
    expect(compareRankings(prompts, answers).moved).toBe(0);
    // Swap the closest answer into the tie group: now two pairs moved.
    expect(compareRankings(prompts, [0.9, 0.8, 0.7, 0.6, 0.05, 0.5]).moved).toBe(2);
  });

  it('names converging pairs only when the answers come closer by a third of the range', () => {
    // Pair 3's answers rank among the closest two (rank 5 of 6) while its prompts rank 4th:
    // ranks alone would call it converging. On the lists scaled to 0 … 1 it moves from 0.50
    // (prompts) to 0.18 (answers), less than a third of the range: not named.
    const prompts = [1.0, 0.9, 0.85, 0.8, 0.7, 0.6];
    expect(compareRankings(prompts, [0.917, 0.9, 0.88, 0.87, 0.895, 0.86]).converging).toEqual([]);
    // A pair whose prompts are among the most distant and whose answers are the closest.
    expect(compareRankings(prompts, [0.9, 0.2, 0.8, 0.7, 0.6, 0.5]).converging).toEqual([1]);
  });

  it('names nothing when every answer distance is the same', () => {
    const result = compareRankings([1, 0.9, 0.8], [0.917, 0.917, 0.917]);
    expect(result.converging).toEqual([]);
    expect(result.diverging).toEqual([]);
    expect(result.moved).toBe(0);
  });
});

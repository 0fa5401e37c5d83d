import { describe, expect, it } from 'vitest';
import type { CollectedAnswer } from '../../../src/checks/personas/answers.js';
import {
  mergeCriticalCounts,
  smallestMerge,
  smallestRecognitionDrop,
} from '../../../src/checks/personas/power.js';
import { swapTest } from '../../../src/checks/personas/swapTest.js';
import {
  pairMerged,
  pairSeparated,
  personasLevels,
  recognitionDropped,
  shareRiseTest,
} from '../../../src/checks/personas/tests.js';
import { fisherExactGreater } from '../../../src/stats/fisher.js';
import { createRng } from '../../../src/stats/prng.js';
import { attributeFromGram, gramMatrix } from '../../../src/stats/text/nearestCentroid.js';
import { normalise } from '../../../src/stats/text/vectors.js';

const assistants = ['a', 'b', 'c'].map((name) => ({ name, control: null }));

/** 3 assistants × 4 probes × 2 samples; `centre[i]` sets where assistant i's answers lie. */
function answersAround(
  centres: number[][],
  seed: number,
): { answers: CollectedAnswer[]; rows: number[][] } {
  const rng = createRng(seed);
  const answers: CollectedAnswer[] = [];
  const rows: number[][] = [];
  centres.forEach((centre, assistant) => {
    for (let probe = 0; probe < 4; probe++) {
      for (let sample = 0; sample < 2; sample++) {
        answers.push({ assistant, probe, sample, text: '', vector: null });
        rows.push(normalise(centre.map((x) => x + rng.next() - 0.5)));
      }
    }
  });
  return { answers, rows };
}

const distinct = [
  [1, 0, 0, 0.2],
  [0, 1, 0, 0.2],
  [0, 0, 1, 0.2],
];

describe('swapTest', () => {
  it('counts what leave-one-out attribution of each model alone gives, before any swap', () => {
    const before = answersAround(distinct, 1);
    const after = answersAround(distinct, 2);
    const result = swapTest({
      assistants,
      baseline: before.answers,
      candidate: after.answers,
      rows: [...before.rows, ...after.rows],
      swaps: 0,
      seed: 1,
    });
    const labels = before.answers.map((a) => a.assistant);
    const direct = attributeFromGram(gramMatrix(before.rows), labels, 3).attributed;
    const recognised = [0, 1, 2].map(
      (i) => direct.filter((to, k) => to === i && labels[k] === i).length,
    );
    expect(result.recognition.map((r) => r.baseline.hits)).toEqual(recognised);
    expect(result.recognition.map((r) => r.baseline.answers)).toEqual([8, 8, 8]);
    expect(result.pairedCells).toBe(24);
  });

  it('gives a small adjusted p to a pair the candidate merges, a large one to unchanged pairs', () => {
    const before = answersAround(distinct, 3);
    const after = answersAround([distinct[0] ?? [], distinct[0] ?? [], distinct[2] ?? []], 4);
    const result = swapTest({
      assistants,
      baseline: before.answers,
      candidate: after.answers,
      rows: [...before.rows, ...after.rows],
      swaps: 200,
      seed: 5,
    });
    const ab = result.pairs.find((p) => p.a === 'a' && p.b === 'b');
    const bc = result.pairs.find((p) => p.a === 'b' && p.b === 'c');
    expect(ab?.baseline.hits).toBe(0);
    expect(ab?.candidate.hits).toBeGreaterThanOrEqual(6);
    expect(ab?.adjusted).toBeLessThan(0.05);
    expect(bc?.adjusted).toBeGreaterThan(0.5);
  });
});

describe('swapTest on a pair the model treats alike', () => {
  it('leaves the pair and its assistants untested, and tests the others', () => {
    // a and b answer from one place on both models: their answers cross at least as often as
    // they are recognised, so the baseline shows no separation for the candidate to lose.
    const alike = [distinct[0] ?? [], distinct[0] ?? [], distinct[2] ?? []];
    const before = answersAround(alike, 7);
    const after = answersAround(alike, 8);
    const result = swapTest({
      assistants,
      baseline: before.answers,
      candidate: after.answers,
      rows: [...before.rows, ...after.rows],
      swaps: 100,
      seed: 9,
    });
    const ab = result.pairs.find((p) => p.a === 'a' && p.b === 'b');
    const recognised = (name: string) =>
      result.recognition.find((r) => r.assistant === name)?.baseline.hits ?? 0;
    expect(ab?.baseline.hits).toBeGreaterThanOrEqual(recognised('a') + recognised('b'));
    expect(ab?.separated).toBe(false);
    expect(ab?.adjusted).toBeNull();
    expect(result.recognition.filter((r) => !r.separated).map((r) => r.assistant)).toEqual([
      'a',
      'b',
    ]);
    // c stays apart from both: its pairs and its recognition are tested.
    const withC = result.pairs.filter((p) => p.b === 'c');
    expect(withC.map((p) => p.separated)).toEqual([true, true]);
    expect(withC.every((p) => p.adjusted !== null && p.adjusted > 0)).toBe(true);
    expect(result.recognition.find((r) => r.assistant === 'c')?.adjusted).not.toBeNull();
  });
});

describe('the separation guard and the per-probe statistic', () => {
  it('calls a pair separated only when its crossings are fewer than its recognitions', () => {
    expect(pairSeparated(2, 20, 18)).toBe(true);
    // a taken for b 5 times, b for a 6; a recognised 4 times, b 3: 11 ≥ 7.
    expect(pairSeparated(11, 4, 3)).toBe(false);
    expect(pairSeparated(7, 4, 3)).toBe(false);
  });

  it('is the pooled Fisher p when the probes agree, and shrinks it when one probe carries all', () => {
    const probes = (hits: number[], answers = 8) => hits.map((h) => ({ hits: h, answers }));
    // Every probe rises by 3 of 8: no more spread than independent answers, φ = 1, p = Fisher.
    const even = shareRiseTest(probes([4, 4, 4, 4]), probes([1, 1, 1, 1]));
    expect(even.dispersion).toBe(1);
    expect(even.p).toBeCloseTo(fisherExactGreater(16, 16, 4, 28), 15);
    // The same 12 extra crossings in one probe: d = 12/8 is impossible, so 8 of 8 in two
    // probes instead: d = 7/8, 7/8, 0, 0 (mean 7/16, Σ(d − d̄)² = 4 · (7/16)², /3 /4 = 49/768).
    // Pooled 4/32 → 18/32, π = 22/64, binomial π(1 − π)/16 = 0.014099. φ = 4.525.
    const lumpy = shareRiseTest(probes([8, 8, 1, 1]), probes([1, 1, 1, 1]));
    expect(lumpy.dispersion).toBeCloseTo(49 / 768 / ((22 / 64) * (42 / 64) * (2 / 32)), 10);
    expect(lumpy.p).toBeGreaterThan(fisherExactGreater(18, 14, 4, 28) * 100);
  });
});

describe('rule decisions', () => {
  const levels = personasLevels(
    assistants,
    { minRecognition: 0.5, minCrossingRise: 0.15 },
    0.05 / 3,
  );

  it('splits the check share between the two rules', () => {
    expect(levels.recognitionAlpha).toBeCloseTo(0.05 / 6, 15);
    expect(levels.mergeAlpha).toBeCloseTo(0.05 / 6, 15);
    expect([levels.recognitionTests, levels.pairTests]).toEqual([3, 3]);
  });

  it('fails a recognition drop only when significant and crossing min-recognition', () => {
    const before = { hits: 20, answers: 32 };
    expect(recognitionDropped(before, { hits: 6, answers: 32 }, 0.001, levels)).toBe(true);
    expect(recognitionDropped(before, { hits: 6, answers: 32 }, 0.02, levels)).toBe(false);
    // Both above the level: a drop, but not below min-recognition.
    expect(
      recognitionDropped({ hits: 32, answers: 32 }, { hits: 17, answers: 32 }, 0.001, levels),
    ).toBe(false);
  });

  it('fails a merge only when significant and rising by at least min-crossing-rise', () => {
    expect(pairMerged({ hits: 3, answers: 64 }, { hits: 40, answers: 64 }, 0.001, levels)).toBe(
      true,
    );
    // 3/64 → 12/64 is a rise of 14 points: below the 15 required, whatever the p.
    expect(pairMerged({ hits: 3, answers: 64 }, { hits: 12, answers: 64 }, 0.001, levels)).toBe(
      false,
    );
    // A pair the baseline did not separate has no adjusted p: never merged.
    expect(pairMerged({ hits: 40, answers: 64 }, { hits: 60, answers: 64 }, null, levels)).toBe(
      false,
    );
  });
});

describe('power at the run settings', () => {
  it('matches a hand computation for four answers a side', () => {
    // c₀ = 0: only c₁ = 4 reaches one-sided Fisher p = 1/C(8,4) = 1/70; power = p₁⁴.
    expect(mergeCriticalCounts(4, 4, 1 / 70, 0)[0]).toBe(4);
    expect(smallestMerge(4, 4, 0, 1 / 70, 0)).toBeCloseTo(0.8 ** 0.25, 6);
  });

  it('needs a smaller effect with more answers', () => {
    const alpha = 0.05 / 6 / 10;
    const eight = smallestMerge(16, 16, 0.05, alpha, 0.15) ?? 1;
    const thirtyTwo = smallestMerge(64, 64, 0.05, alpha, 0.15) ?? 1;
    expect(thirtyTwo).toBeLessThan(eight);
    expect(thirtyTwo).toBeGreaterThan(0.2);
    expect(smallestRecognitionDrop(32, 32, 0.9, 0.05 / 6 / 5, 0.5)).toBeGreaterThan(0.3);
    // A baseline at the level itself is above it only half the time: never 80% power.
    expect(smallestRecognitionDrop(32, 32, 0.5, 0.05 / 6 / 5, 0.5)).toBeNull();
  });
});

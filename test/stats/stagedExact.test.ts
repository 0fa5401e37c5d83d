import { describe, expect, it } from 'vitest';
import { fisherExactTwoSided } from '../../src/stats/fisher.js';
import { createRng } from '../../src/stats/prng.js';
import { conditionalDistribution, conditionalExactTwoSided } from '../../src/stats/stagedExact.js';
import { stratifiedExactTest } from '../../src/stats/stratifiedExact.js';

describe('conditionalExactTwoSided', () => {
  it('is Fisher’s exact test for one stratum', () => {
    const rng = createRng(17);
    for (let i = 0; i < 300; i++) {
      const n1 = 1 + rng.int(20);
      const n2 = 1 + rng.int(20);
      const x1 = rng.int(n1 + 1);
      const x2 = rng.int(n2 + 1);
      expect(conditionalExactTwoSided([{ x1, n1, x2, n2 }])).toBeCloseTo(
        fisherExactTwoSided(x1, n1 - x1, x2, n2 - x2),
        12,
      );
    }
  });

  it('convolves the stages’ hypergeometric laws (hand-enumerated two-stage case)', () => {
    // Stage 1: 2 + 2 trials, 2 successes in all: x2 = 0, 1, 2 with C(2,k)·C(2,2−k)/C(4,2) =
    // 1/6, 4/6, 1/6. Stage 2: 1 + 1 trials, 1 success: x2 = 0, 1 with 1/2 each.
    // T = 0, 1, 2, 3 with 1/12, 5/12, 5/12, 1/12.
    const stages = (a: number, b: number) => [
      { x1: 2 - a, n1: 2, x2: a, n2: 2 },
      { x1: 1 - b, n1: 1, x2: b, n2: 1 },
    ];
    const law = conditionalDistribution(stages(2, 1));
    expect(law.low).toBe(0);
    expect(law.pmf.map((p) => p * 12)).toEqual([1, 5, 5, 1].map((v) => expect.closeTo(v, 12)));
    // T = 3: only T = 0 and T = 3 are as improbable: 1/6.
    expect(conditionalExactTwoSided(stages(2, 1))).toBeCloseTo(1 / 6, 12);
    expect(conditionalExactTwoSided(stages(0, 0))).toBeCloseTo(1 / 6, 12);
    expect(conditionalExactTwoSided(stages(1, 1))).toBeCloseTo(1, 12);
    // The one-sided tail agrees with the stratified exact test on the same strata.
    expect(stratifiedExactTest(stages(2, 1)).pUpper).toBeCloseTo(1 / 12, 12);
    // Pooling the stages into one 3 + 3 table with 3 successes would give another answer:
    // Fisher P(x2 = 3) = 1/20, two-sided 1/10.
    expect(fisherExactTwoSided(0, 3, 3, 0)).toBeCloseTo(1 / 10, 12);
  });

  it('treats strata with one possible table as adding nothing', () => {
    const open = { x1: 1, n1: 4, x2: 3, n2: 4 };
    expect(
      conditionalExactTwoSided([
        open,
        { x1: 5, n1: 5, x2: 5, n2: 5 },
        { x1: 0, n1: 5, x2: 0, n2: 5 },
      ]),
    ).toBeCloseTo(conditionalExactTwoSided([open]), 12);
    expect(conditionalExactTwoSided([{ x1: 0, n1: 5, x2: 0, n2: 5 }])).toBe(1);
    expect(conditionalExactTwoSided([])).toBe(1);
  });

  it('refuses impossible counts', () => {
    expect(() => conditionalExactTwoSided([{ x1: 3, n1: 2, x2: 0, n2: 2 }])).toThrow(
      /above trials/,
    );
    expect(() => conditionalExactTwoSided([{ x1: -1, n1: 2, x2: 0, n2: 2 }])).toThrow(
      /non-negative integer/,
    );
  });
});

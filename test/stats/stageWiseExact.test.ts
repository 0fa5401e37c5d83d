import { describe, expect, it } from 'vitest';
import { createRng } from '../../src/stats/prng.js';
import { conditionalExactTwoSided } from '../../src/stats/stagedExact.js';
import { stageWiseTwoSided } from '../../src/stats/stageWiseExact.js';
import { hypergeometric } from '../../src/stats/hypergeometric.js';
import type { Stratum } from '../../src/stats/stratifiedExact.js';

describe('stageWiseTwoSided', () => {
  it('is the staged exact test when nothing can stop early (bound 0)', () => {
    const rng = createRng(29);
    for (let i = 0; i < 200; i++) {
      const strata: Stratum[] = [];
      for (let j = 0; j <= rng.int(4); j++) {
        const n = 1 + rng.int(6);
        strata.push({ x1: rng.int(n + 1), n1: n, x2: rng.int(n + 1), n2: n });
      }
      const got = stageWiseTwoSided(strata, 0);
      expect(got.stoppedAt).toBeNull();
      expect(got.pValue).toBeCloseTo(conditionalExactTwoSided(strata), 10);
    }
  });

  it('counts an earlier stop as more extreme (hand-enumerated two-stage case)', () => {
    // Stage 1: 2 + 2 trials, 2 successes: x2 = 0, 1, 2 with 1/6, 4/6, 1/6; x2 = 0 or 2 has
    // p = 1/3, at the bound: the item stops. Stage 2 (1 + 1 trials, 1 success) is reached from
    // x2 = 1 only; every S2 value then counts the 1/3 spent plus the 2/3 still open: p = 1.
    const first = { x1: 0, n1: 2, x2: 2, n2: 2 };
    expect(stageWiseTwoSided([first], 1 / 3 + 1e-12)).toEqual({
      pValue: expect.closeTo(1 / 3, 12),
      stoppedAt: 0,
    });
    // Stages after the stop are ignored.
    expect(stageWiseTwoSided([first, { x1: 1, n1: 1, x2: 0, n2: 1 }], 0.34).stoppedAt).toBe(0);
    const open = [
      { x1: 1, n1: 2, x2: 1, n2: 2 },
      { x1: 0, n1: 1, x2: 1, n2: 1 },
    ];
    expect(stageWiseTwoSided(open, 0.34)).toEqual({
      pValue: expect.closeTo(1, 12),
      stoppedAt: null,
    });
    // Without the early stop the same path has the staged test's p-value.
    expect(stageWiseTwoSided(open, 0).pValue).toBeCloseTo(conditionalExactTwoSided(open), 12);
  });

  it('keeps its level exactly: P(p ≤ u) ≤ u over every path of a three-look design', () => {
    // Three stages of 5 + 5 samples with pooled totals 5, 4 and 6: every split of every stage
    // enumerated with its hypergeometric probability (the null law given the margins).
    const totals = [5, 4, 6];
    const laws = totals.map((t) => hypergeometric(5, 5, t));
    for (const bound of [0.001, 0.01, 0.05]) {
      const reported: Array<[number, number]> = [];
      const walk = (j: number, strata: Stratum[], mass: number): void => {
        if (j === totals.length) {
          reported.push([stageWiseTwoSided(strata, bound).pValue, mass]);
          return;
        }
        const law = laws[j] as { low: number; pmf: number[] };
        law.pmf.forEach((p, k) => {
          const x2 = law.low + k;
          const t = totals[j] as number;
          walk(j + 1, [...strata, { x1: t - x2, n1: 5, x2, n2: 5 }], mass * p);
        });
      };
      walk(0, [], 1);
      for (const u of [bound, 0.001, 0.01, 0.05, 0.1, 0.2, 0.5]) {
        const rate = reported.filter(([p]) => p <= u).reduce((s, [, m]) => s + m, 0);
        expect(rate).toBeLessThanOrEqual(u * (1 + 1e-9));
      }
      // The chance of stopping early never exceeds the bound.
      const early = reported.filter(([p]) => p <= bound).reduce((s, [, m]) => s + m, 0);
      expect(early).toBeLessThanOrEqual(bound * (1 + 1e-9));
    }
  });
});

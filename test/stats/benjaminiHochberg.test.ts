import { describe, expect, it } from 'vitest';
import { benjaminiHochberg } from '../../src/stats/benjaminiHochberg.js';
import { createRng } from '../../src/stats/prng.js';

describe('benjaminiHochberg', () => {
  it('matches a hand computation and keeps the input order', () => {
    // Sorted 0.01, 0.03, 0.04 (m = 3): m·p/rank = 0.03, 0.045, 0.04; running minimum from
    // the top: 0.04, 0.04, 0.03 → in input order [0.04, 0.03, 0.04].
    const q = benjaminiHochberg([0.04, 0.01, 0.03]);
    expect(q[0]).toBeCloseTo(0.04, 15);
    expect(q[1]).toBeCloseTo(0.03, 15);
    expect(q[2]).toBeCloseTo(0.04, 15);
  });

  it('reproduces p.adjust on evenly spaced p-values', () => {
    // R: p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "BH") → 0.05 0.05 0.05 0.05 0.05.
    for (const q of benjaminiHochberg([0.01, 0.02, 0.03, 0.04, 0.05])) {
      expect(q).toBeCloseTo(0.05, 15);
    }
  });

  it('rejects four hypotheses in the example of Benjamini & Hochberg (1995)', () => {
    // The 15 p-values of their section 4 example; at q = 0.05 the procedure rejects the
    // four smallest (0.0095 ≤ 4/15·0.05 = 0.0133, 0.0201 > 5/15·0.05 = 0.0167, …).
    const p = [
      0.0001, 0.0004, 0.0019, 0.0095, 0.0201, 0.0278, 0.0298, 0.0344, 0.0459, 0.324, 0.4262, 0.5719,
      0.6528, 0.759, 1,
    ];
    const q = benjaminiHochberg(p);
    expect(q.filter((value) => value <= 0.05)).toHaveLength(4);
    // q of the fourth: min over j ≥ 4 of 15·p_j/j; j = 4 gives 15·0.0095/4 = 0.035625.
    expect(q[3]).toBeCloseTo(0.035625, 15);
  });

  it('caps at 1 and handles no tests', () => {
    expect(benjaminiHochberg([0.9, 1])).toEqual([1, 1]);
    expect(benjaminiHochberg([])).toEqual([]);
  });

  it('gives tied p-values the q-value of the definition, term by term', () => {
    // Many ties, as a null calibration's exact tests give: q_i = min(1, min over p_j ≥ p_i of
    // m·p_j / r_j), r_j the number of p-values ≤ p_j, computed here by brute force.
    const rng = createRng(3);
    const levels = [0.001, 0.004, 0.02, 0.02, 0.3, 0.5, 1];
    const p = Array.from({ length: 400 }, () => levels[rng.int(levels.length)] as number);
    const m = p.length;
    const expected = p.map((pi) => {
      let q = 1;
      for (const pj of p) {
        if (pj < pi) continue;
        const r = p.filter((x) => x <= pj).length;
        q = Math.min(q, (m * pj) / r);
      }
      return q;
    });
    expect(benjaminiHochberg(p)).toEqual(expected);
    expect(() => benjaminiHochberg([0.1, Number.NaN])).toThrow(/benjaminiHochberg needs p-values/);
  });
});

import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../../src/stats/holm.js';

describe('holmAdjust', () => {
  it('matches a hand computation and keeps the input order', () => {
    // Sorted 0.005, 0.01, 0.03, 0.04 (m = 4): (m − j + 1)·p = 0.02, 0.03, 0.06, 0.04; running
    // maximum 0.02, 0.03, 0.06, 0.06 → in input order [0.03, 0.06, 0.06, 0.02].
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted[0]).toBeCloseTo(0.03, 15);
    expect(adjusted[1]).toBeCloseTo(0.06, 15);
    expect(adjusted[2]).toBeCloseTo(0.06, 15);
    expect(adjusted[3]).toBeCloseTo(0.02, 15);
  });

  it('caps at 1 and refuses what is not a p-value', () => {
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
    expect(() => holmAdjust([0.1, Number.NaN])).toThrow(RangeError);
  });
});

import { describe, expect, it } from 'vitest';
import { jaccard, jaccardMatrix } from '../../../src/stats/text/jaccard.js';

describe('jaccard', () => {
  it('is |A ∩ B| / |A ∪ B|', () => {
    // {a, b, c} ∩ {b, c, d, e} = {b, c}; union has 5 words → 2/5
    expect(jaccard(new Set(['a', 'b', 'c']), new Set(['b', 'c', 'd', 'e']))).toBeCloseTo(0.4, 15);
    expect(jaccard(new Set(['a']), new Set(['b']))).toBe(0);
    expect(jaccard(new Set(), new Set())).toBe(1);
  });

  it('builds a symmetric matrix with 1 on the diagonal', () => {
    const m = jaccardMatrix([new Set(['a', 'b']), new Set(['b', 'c']), new Set(['z'])]);
    // {a,b} vs {b,c}: 1 shared of 3 → 1/3
    expect(m[0]?.[1]).toBeCloseTo(1 / 3, 15);
    expect(m[1]?.[0]).toBeCloseTo(1 / 3, 15);
    expect(m[0]?.[2]).toBe(0);
    expect(m.map((row, i) => row[i])).toEqual([1, 1, 1]);
  });
});

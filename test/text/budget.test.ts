import { describe, expect, it } from 'vitest';
import { lengthCap, shorten } from '../../src/text/budget.js';

describe('lengthCap', () => {
  it('keeps every text whole when they fit', () => {
    expect(lengthCap([10, 20, 30], 60)).toBe(Number.POSITIVE_INFINITY);
  });

  it('cuts only the longest texts, to one length (hand-computed)', () => {
    // 10 + 20 + 2 × L ≤ 100 → L = 35: the 10 and the 20 stay whole, 50 and 70 become 35.
    expect(lengthCap([50, 10, 70, 20], 100)).toBe(35);
    // Everything cut: 4 texts into 10 characters → 2 each.
    expect(lengthCap([50, 50, 50, 50], 10)).toBe(2);
  });

  it('never exceeds the budget once applied', () => {
    const lengths = [3, 900, 41, 41, 5000, 7];
    const cap = lengthCap(lengths, 1000);
    expect(lengths.reduce((s, l) => s + Math.min(l, cap), 0)).toBeLessThanOrEqual(1000);
    expect(lengths.reduce((s, l) => s + Math.min(l, cap + 1), 0)).toBeGreaterThan(1000);
  });
});

describe('shorten', () => {
  it('ends a cut text with an ellipsis within the cap, never half a surrogate pair', () => {
    expect(shorten('abcdef', 10)).toBe('abcdef');
    expect(shorten('abcdef', 4)).toBe('abc…');
    expect(shorten('ab😀cd', 4)).toBe('ab…');
  });
});

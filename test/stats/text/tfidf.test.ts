import { describe, expect, it } from 'vitest';
import { tfidf } from '../../../src/stats/text/tfidf.js';
import { cosine, mean, norm, normalise } from '../../../src/stats/text/vectors.js';

describe('tfidf', () => {
  it('weights with smooth idf ln((1+n)/(1+df)) + 1 and L2-normalises each row', () => {
    // n = 2 documents. "apple" is in 1 document: idf = ln(3/2) + 1 = 1.405465;
    // "pear" is in both: idf = ln(3/3) + 1 = 1.
    // d1 = apple apple pear: tf = (2/3, 1/3) → (0.936977, 0.333333), length 0.994503
    //   → (0.942156, 0.335176).  d2 = pear → (0, 1).
    const m = tfidf([['apple', 'apple', 'pear'], ['pear']]);
    expect(m.vocabulary).toEqual(['apple', 'pear']);
    expect(m.idf[0]).toBeCloseTo(Math.log(1.5) + 1, 12);
    expect(m.idf[1]).toBeCloseTo(1, 12);
    expect(m.rows[0]?.[0]).toBeCloseTo(0.9421556246632359, 12);
    expect(m.rows[0]?.[1]).toBeCloseTo(0.3351757433279261, 12);
    expect(m.rows[1]).toEqual([0, 1]);
  });

  it('leaves a document without words as a zero row', () => {
    const m = tfidf([[], ['word']]);
    expect(m.rows[0]).toEqual([0]);
    expect(norm(m.rows[1] ?? [])).toBeCloseTo(1, 12);
  });
});

describe('vectors', () => {
  it('computes cosine, mean and normalisation', () => {
    // (1,0)·(0.6,0.8) = 0.6 with both of length 1
    expect(cosine([1, 0], [0.6, 0.8])).toBeCloseTo(0.6, 15);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(
      mean([
        [1, 2],
        [3, 6],
      ]),
    ).toEqual([2, 4]);
    expect(normalise([3, 4])).toEqual([0.6, 0.8]);
    expect(normalise([0, 0])).toEqual([0, 0]);
  });
});

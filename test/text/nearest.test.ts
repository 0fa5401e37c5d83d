import { describe, expect, it } from 'vitest';
import { didYouMean, editDistance, nearWords } from '../../src/text/nearest.js';

describe('near words', () => {
  it('counts edits, a swap of two neighbours as one', () => {
    expect(editDistance('concurency', 'concurrency')).toBe(1);
    expect(editDistance('cnad', 'cand')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('keeps the words a third of the length away at most, nearest first, case ignored', () => {
    expect(nearWords('Sampels', ['seed', 'samples-max', 'samples'])).toEqual(['samples']);
    expect(nearWords('dragn', ['churn', 'dragon', 'personas'])).toEqual(['dragon']);
    // One character of a short word may be wrong, never two.
    expect(nearWords('ab', ['ax', 'xy'])).toEqual(['ax']);
    expect(nearWords('speed', ['concurrency', 'retries'])).toEqual([]);
  });

  it('words the suggestion, or says nothing when no word is near', () => {
    expect(didYouMean('regresion', ['regression', 'never'])).toBe('; did you mean "regression"?');
    expect(didYouMean('whatever', ['regression', 'never'])).toBe('');
    expect(didYouMean(3, ['regression'])).toBe('');
  });
});

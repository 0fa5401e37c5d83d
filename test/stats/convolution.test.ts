import { describe, expect, it } from 'vitest';
import { convolution } from '../../src/stats/convolution.js';

describe('convolution', () => {
  it('gives the law of a sum, computed by hand', () => {
    // Two fair coins and a die-like law on 0..2: P(Σ = j) by enumeration.
    const coin = [0.5, 0.5];
    const three = [0.2, 0.3, 0.5];
    const got = Array.from(convolution([coin, coin, three]));
    // Coins: 0.25, 0.5, 0.25; then with `three`.
    const expected = [0.05, 0.175, 0.325, 0.325, 0.125];
    expect(got).toHaveLength(5);
    got.forEach((p, j) => {
      expect(p).toBeCloseTo(expected[j] as number, 15);
    });
  });

  it('is the point mass at 0 for no law, and keeps zeros inside a law', () => {
    expect(Array.from(convolution([]))).toEqual([1]);
    expect(
      Array.from(
        convolution([
          [0, 1],
          [0.5, 0, 0.5],
        ]),
      ),
    ).toEqual([0, 0.5, 0, 0.5]);
  });
});

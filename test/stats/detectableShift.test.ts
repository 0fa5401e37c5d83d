import { describe, expect, it } from 'vitest';
import { detectableShift } from '../../src/stats/detectableShift.js';

describe('detectableShift', () => {
  it('is (z(1−α) + z(0.8))·SE without a threshold: 2.486 SE at one-sided 5%', () => {
    // z(0.95) = 1.6449, z(0.8) = 0.8416 → 2.4865 (the textbook 80%-power multiplier).
    expect(detectableShift(1, 0.05)).toBeCloseTo(2.4865, 4);
  });

  it('takes the threshold when it binds: SE 0.02, α = 0.05/6, threshold 0.05 → 0.0668', () => {
    // 0.05 + 0.8416·0.02 = 0.06683 > (2.3940 + 0.8416)·0.02 = 0.06471.
    expect(detectableShift(0.02, 0.05 / 6, 0.05)).toBeCloseTo(0.06683, 4);
    expect(detectableShift(0.04, 0.05 / 6, 0.05)).toBeCloseTo(3.2356 * 0.04, 3);
  });
});

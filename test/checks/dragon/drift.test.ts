/**
 * The drift rule's statistics: the slope against a hand computation, and the false-alarm
 * rate it states against an independent simulation of windows where nothing changes.
 */
import { describe, expect, it } from 'vitest';
import {
  analyseDrift,
  detectionRate,
  driftFires,
  nightSd,
  weightedSlope,
} from '../../../src/checks/dragon/drift.js';
import { DRIFT_DEFAULTS } from '../../../src/config/history.js';
import { createRng } from '../../../src/stats/prng.js';

function gaussian(rng: ReturnType<typeof createRng>): number {
  return Math.sqrt(-2 * Math.log(1 - rng.next())) * Math.cos(2 * Math.PI * rng.next());
}

describe('weightedSlope', () => {
  it('matches the hand computation', () => {
    // x = 0, 1, 2; y = 1, 2, 4; equal weights: x̄ = 1, ȳ = 7/3, Sxx = 2, Sxy = 3 → slope 1.5.
    const fit = weightedSlope([1, 2, 4], [1, 1, 1]);
    expect(fit.slope).toBeCloseTo(1.5, 12);
    expect(fit.se).toBeCloseTo(1 / Math.sqrt(2), 12);
    // Halving every σ halves the standard error and leaves the slope.
    expect(weightedSlope([1, 2, 4], [0.5, 0.5, 0.5]).se).toBeCloseTo(0.5 / Math.sqrt(2), 12);
  });

  it('weights a noisy night less', () => {
    // The last night is far off but has a huge interval: the slope follows the others.
    const fit = weightedSlope([0.1, 0.1, 0.1, 0.9], [0.01, 0.01, 0.01, 10]);
    expect(Math.abs(fit.slope)).toBeLessThan(0.001);
  });

  it('reads σ from a 95% interval', () => {
    expect(
      nightSd({ value: 0.2, low: 0.2 - 1.959964 * 0.03, high: 0.2 + 1.959964 * 0.03 }),
    ).toBeCloseTo(0.03, 5);
    // A zero-width interval gets the floor, never a zero weight.
    expect(nightSd({ value: 0.2, low: 0.2, high: 0.2 })).toBeGreaterThan(0);
  });
});

describe('false-alarm rate', () => {
  const settings = { ...DRIFT_DEFAULTS, maxRise: 0.001, alpha: 0.05 };
  const sds = [0.03, 0.02, 0.04, 0.03, 0.03, 0.05, 0.02];

  it('the stated rate matches an independent simulation of windows without change', () => {
    const analysis = analyseDrift(
      sds.map((sd) => ({ value: 0.2, low: 0.2 - 1.96 * sd, high: 0.2 + 1.96 * sd })),
      { ...settings, nights: 7 },
    );
    // Independent draws (another seed, another generator use): 4000 flat windows.
    const rng = createRng(99);
    let fired = 0;
    const runs = 4000;
    for (let r = 0; r < runs; r++) {
      const values = sds.map((sd) => 0.2 + sd * gaussian(rng));
      if (driftFires(values, sds, settings)) fired++;
    }
    const observed = fired / runs;
    // With a negligible rise limit the z test alone decides: α = 5% one-sided.
    expect(analysis.falseAlarmRate).toBeGreaterThan(0.035);
    expect(analysis.falseAlarmRate).toBeLessThan(0.065);
    expect(Math.abs((analysis.falseAlarmRate ?? 0) - observed)).toBeLessThan(0.015);
  });

  it('the rise limit lowers the rate, and the smallest detected rise is detected', () => {
    const strict = { ...DRIFT_DEFAULTS, nights: 7 };
    const noise = sds.map((sd) => ({ value: 0.2, low: 0.2 - 1.96 * sd, high: 0.2 + 1.96 * sd }));
    const analysis = analyseDrift(noise, strict);
    const zOnly = analyseDrift(noise, { ...strict, maxRise: 0.001 });
    // α = 0.56% (5% over three checks, then three dragon rules): the z test alone is near
    // 0.56% (2000 windows: Wilson-like band 0.2% … 1.1%); the rise limit can only lower it.
    expect(DRIFT_DEFAULTS.alpha).toBeCloseTo(0.05 / 9, 12);
    expect(zOnly.falseAlarmRate).toBeGreaterThan(0.002);
    expect(zOnly.falseAlarmRate).toBeLessThan(0.011);
    expect(analysis.falseAlarmRate).toBeLessThanOrEqual(zOnly.falseAlarmRate ?? 0);
    const smallest = analysis.smallestDetectedRise ?? Number.NaN;
    // Above the rise limit (both conditions must hold), and detected ≥ 80% there, < 80% below.
    expect(smallest).toBeGreaterThan(strict.maxRise);
    expect(detectionRate(sds, smallest, strict)).toBeGreaterThanOrEqual(0.8);
    expect(detectionRate(sds, smallest - 0.005, strict)).toBeLessThan(0.8);
  });

  it('needs the configured number of nights', () => {
    const few = analyseDrift([
      { value: 0.1, low: 0.05, high: 0.15 },
      null,
      { value: 0.5, low: 0.45, high: 0.55 },
    ]);
    expect(few.window).toBe(0);
    expect(few.available).toBe(2);
    expect(few.fired).toBe(false);
  });
});

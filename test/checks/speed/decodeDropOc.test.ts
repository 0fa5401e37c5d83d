/**
 * Operating characteristics of the nightly `decode-drop` rule, by simulation from a known
 * truth: each night the server runs at 60 tokens/s times a night factor (lognormal, σ 0.05:
 * a dedicated GPU's night-to-night spread), each of 90 answers adds lognormal noise (σ 0.25),
 * and the night's rate is the median of its answers, as the history line keeps it. Seven
 * previous nights, then tonight at the true rate times (1 − drop).
 */
import { describe, expect, it } from 'vitest';
import { analyseDecodeDrop } from '../../../src/checks/speed/nightly.js';
import type { SpeedNight } from '../../../src/checks/speed/nightlyChart.js';
import { quantile } from '../../../src/stats/quantile.js';
import { createRng, type Rng } from '../../../src/stats/prng.js';

const RUNS = 2000;
const ANSWERS = 90;
const NIGHT_SIGMA = 0.05;
const ANSWER_SIGMA = 0.25;

function normal(rng: Rng): number {
  const u = 1 - rng.next();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rng.next());
}

function night(rng: Rng, factor: number): SpeedNight {
  const server = 60 * factor * Math.exp(NIGHT_SIGMA * normal(rng));
  const rates = Array.from(
    { length: ANSWERS },
    () => server * Math.exp(ANSWER_SIGMA * normal(rng)),
  );
  return { decodeTokensPerSecond: quantile(rates, 0.5) };
}

/** Share of runs in which tonight fails, at the default limit (0.25) and window (7). */
function failShare(drop: number, seed: number): number {
  const rng = createRng(seed);
  let failed = 0;
  for (let run = 0; run < RUNS; run++) {
    const nights = Array.from({ length: 7 }, () => night(rng, 1));
    nights.push(night(rng, 1 - drop));
    if (analyseDecodeDrop(nights, 0.25, 7).fired) failed++;
  }
  return failed / RUNS;
}

describe('decode-drop at its defaults, 2,000 simulated histories each', () => {
  it('no change: no false fail', () => {
    expect(failShare(0, 1)).toBe(0);
  });

  it('a 35% slower night fails almost always; 10% slower, almost never', () => {
    expect(failShare(0.35, 2)).toBeGreaterThan(0.95);
    expect(failShare(0.1, 3)).toBeLessThan(0.02);
  });
});

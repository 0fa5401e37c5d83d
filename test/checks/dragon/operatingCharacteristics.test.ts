/**
 * A fast subset of bench/oc/dragon.ts: games of scripted players with a known confidence
 * behaviour, played by the real engine, through the real analyse + gate. Few runs, but a rule
 * that fails identical players on noise, or misses a plain calibration loss, fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  CAREFUL,
  controlOnWindows,
  harness,
  OVERCONFIDENT,
  overstating,
  RANDOM,
  runScenario,
  simulatePair,
} from '../../../bench/oc/dragon.js';

describe('dragon operating characteristics (fast subset)', () => {
  it('two identical players never fail in a handful of runs, whatever their calibration', async () => {
    // With no test behind it, a rise above 0.05 alone failed identical overconfident or random
    // players in several percent of runs, and the point rule at 95% in 2.5%.
    for (const player of [CAREFUL, RANDOM, OVERCONFIDENT]) {
      const result = await runScenario(player, player, { runs: 4, seed: 11 });
      expect(result.gateFails.filter(Boolean)).toHaveLength(0);
    }
  }, 60_000);

  it('a rise above 0.05 that identical players show is not a regression', async () => {
    // Two random (0.5) players on seeds 20350–20359: the candidate's ECE is 0.058 higher and
    // the 95% bootstrap interval of the difference excludes 0 (a bootstrap over ten games is
    // too narrow), so a rule on the interval failed it. The paired permutation test does not.
    const seeds = Array.from({ length: 10 }, (_, k) => 20_350 + k);
    const outcome = simulatePair(await harness(seeds), RANDOM, RANDOM, 'find/35');
    const ece = outcome.section.comparison?.ece;
    expect(ece?.difference.value).toBeGreaterThan(0.05);
    expect(ece?.difference.low).toBeGreaterThan(0);
    expect(ece?.pValue).toBeGreaterThan(0.03);
    expect(outcome.findings.filter((f) => f.severity === 'fail')).toEqual([]);
  }, 60_000);

  it('a candidate stating 0.9 where it is right 64% of the time fails the ECE rule', async () => {
    const result = await runScenario(CAREFUL, overstating(0.9), { runs: 6, seed: 12 });
    expect(result.fails['ece-increase'] ?? 0).toBeGreaterThanOrEqual(5);
    expect(result.meanEceDifference).toBeGreaterThan(0.07);
  }, 60_000);

  it('the reference players pass the instrument control on windows a point ranking failed', async () => {
    // Seeds 40–49 (demo-base:1b with the three players exited 3), 380–389 and 1080–1089: three
    // of the 13 windows of seeds 0–1999 where careful did not have the lowest point ECE.
    const control = await controlOnWindows([40, 380, 1080]);
    expect(control.inconclusive).toEqual([]);
  }, 60_000);
});

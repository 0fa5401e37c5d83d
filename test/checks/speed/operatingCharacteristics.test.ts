/**
 * A fast subset of `npm run oc` for speed (bench/oc/speed.ts): a few runs of the check alone at
 * σ = 0.25, where docs/gate-validity-speed.md has the full table.
 */
import { describe, expect, it } from 'vitest';
import { speedFailures } from '../../../bench/oc/speed.js';

const alone = { checks: ['speed'] };
const truth = { items: 90, samples: 1, sigma: 0.25 };

describe('speed operating characteristics (40 runs each)', () => {
  it('keeps identical models under its share, drift of 30% included at max-slowdown 0.10', () => {
    // Share 1.67%: 40 runs put more than 3 fails beyond chance (P(≥ 4) < 0.5%).
    expect(speedFailures(truth, alone, 'slowdown', 40, 1).hits).toBeLessThanOrEqual(3);
    const drifting = { ...alone, gate: { maxSlowdown: 0.1 } };
    expect(
      speedFailures({ ...truth, drift: 1.3 }, drifting, 'slowdown', 40, 2).hits,
    ).toBeLessThanOrEqual(3);
    expect(
      speedFailures({ ...truth, drift: 1.3, blocks: 1 }, drifting, 'slowdown', 40, 3).hits,
    ).toBeLessThanOrEqual(3);
  });

  it('fails a 1.5× slower decode in most runs at the default limit', () => {
    // Measured 86.5% over 200 runs: below 24 of 40 is under 1% likely.
    expect(
      speedFailures({ ...truth, decodeRatio: 1.5 }, alone, 'slowdown', 40, 4).hits,
    ).toBeGreaterThanOrEqual(24);
  });
});

/**
 * A fast check of the nightly `decode-drop` rows of `npm run oc` (bench/oc/speedNightly.ts):
 * histories simulated from a known truth (60 tokens/s, σ 0.05 per night, σ 0.25 per answer, 90
 * answers), tonight unchanged or slower by a known share, through the rule at its defaults
 * (docs/gate-validity-speed.md has the full table).
 */
import { describe, expect, it } from 'vitest';
import { decodeDropCharacteristics, decodeDropFailures } from '../../../bench/oc/speedNightly.js';

describe('decode-drop at its defaults, 2,000 simulated histories each', () => {
  it('no change: no false fail', () => {
    expect(decodeDropFailures(0, 2000, 1)).toBe(0);
  });

  it('a 35% slower night fails almost always; 10% slower, almost never', () => {
    expect(decodeDropFailures(0.35, 2000, 2) / 2000).toBeGreaterThan(0.95);
    expect(decodeDropFailures(0.1, 2000, 3) / 2000).toBeLessThan(0.02);
  });

  it("gives npm run oc its rows, each meeting its target at the bench's default size", () => {
    const { rows } = decodeDropCharacteristics({ runs: 200, seed: 1 });
    expect(rows.map((r) => r.rule)).toEqual(Array(6).fill('decode-drop'));
    expect(rows.map((r) => r.target)).toEqual([
      '≤ 0.5%',
      '≤ 2.0%',
      'shown',
      'shown',
      '≥ 80%',
      '≥ 95%',
    ]);
    expect(rows.every((r) => r.met && r.runs === 2000)).toBe(true);
    // Fails grow with the drop.
    const hits = rows.map((r) => r.hits);
    expect([...hits].sort((a, b) => a - b)).toEqual(hits);
  });
});

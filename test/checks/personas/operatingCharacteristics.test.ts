/**
 * A fast subset of `npm run oc` for personas: a few runs of answers generated from known
 * vocabularies, through the check's real analyse and gate. Few runs, but a rule that fails
 * identical models or sleeps through a merge fails here.
 */
import { describe, expect, it } from 'vitest';
import {
  LOOK_ALIKE_SCENARIOS,
  operatingCharacteristics,
  RUN_SHARE,
  SCENARIOS,
  simulateRun,
} from '../../../bench/oc/personas.js';

describe('personas operating characteristics (fast subset)', () => {
  it('passes identical models and fails a candidate that merges two assistants', async () => {
    const chosen = [
      SCENARIOS.find((s) => s.name === 'no change'),
      SCENARIOS.find((s) => s.name === 'candidate merges two assistants'),
      SCENARIOS.find((s) => s.name === 'candidate merges two, no probe words'),
    ].filter((s) => s !== undefined);
    expect(chosen).toHaveLength(3);
    const { rows, noChangeGateFails } = await operatingCharacteristics(
      { runs: 2 * RUN_SHARE, seed: 11 },
      {},
      chosen,
    );
    expect(noChangeGateFails).toEqual([false, false]);
    const named = rows.filter((r) => r.rule === 'merged-pair (names the pair)');
    // Power is 100% with probe words and about 85% without: both runs, then at least one.
    expect(named[0]?.hits).toBe(2);
    expect(named[1]?.hits).toBeGreaterThanOrEqual(1);
  }, 120_000);

  it('leaves a look-alike pair untested and passes identical models on it', () => {
    // Four assistants, two answering from one voice (undeclared), two weakly distinct; 8 probes
    // × 4 samples, both models from the same distributions; fewer swaps than the default. Seeds
    // chosen once; npm run oc measures the rates at the defaults.
    const scenario = LOOK_ALIKE_SCENARIOS.find((s) => s.name.includes('weakly distinct (own 7%)'));
    if (!scenario) throw new Error('no look-alike scenario');
    for (let r = 0; r < 2; r++) {
      const { section, findings } = simulateRun(scenario, 7_000 + r, {
        personas: { permutations: 100 },
      });
      const twins = section.comparison?.pairs.find((p) => p.a === 'boats' && p.b === 'gardens');
      expect(twins?.separated).toBe(false);
      expect(twins?.adjusted).toBeNull();
      expect(twins?.merged).toBe(false);
      // The two weakly distinct assistants, told apart on the baseline, stay tested.
      const other = section.comparison?.pairs.find((p) => p.a === 'music' && p.b === 'taxes');
      expect(other?.adjusted).not.toBeNull();
      expect(findings.filter((f) => f.severity === 'fail')).toEqual([]);
    }
  });
});

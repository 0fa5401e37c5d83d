/**
 * A fast subset of `npm run oc` for personas: a few runs of answers generated from known
 * vocabularies, through the check's real analyse and gate. Few runs, but a rule that fails
 * identical models or sleeps through a merge fails here.
 */
import { describe, expect, it } from 'vitest';
import { operatingCharacteristics, RUN_SHARE, SCENARIOS } from '../../../bench/oc/personas.js';

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
});

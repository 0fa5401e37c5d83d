/**
 * A fast subset of the nightly rows of `npm run oc` (bench/oc/nightly.ts): one run of seven
 * nights without change, through the dragon's real analyse, gate and drift rule and nightly
 * personas. The drift rule takes its part of the dragon's share, and a quiet night passes.
 */
import { describe, expect, it } from 'vitest';
import { CAREFUL } from '../../bench/oc/dragon.js';
import { nightlyWithHistory } from '../../bench/oc/nightly.js';

describe('nightly operating characteristics (fast subset)', () => {
  it('gives ece-drift a third of the dragon share and passes a quiet night', async () => {
    const { rows, noChangeGateFails } = await nightlyWithHistory({ runs: 1, seed: 3 }, [CAREFUL]);
    expect(rows.map((r) => `${r.check}/${r.rule}`)).toEqual([
      'dragon/ece-increase',
      'dragon/brier-above-chance',
      'dragon/ece-drift',
      'dragon/any',
      'personas (nightly)/any',
      'all three/whole gate',
    ]);
    // 5% over three checks, then three dragon rules: 0.56% each, 1.67% for the check.
    expect(rows.find((r) => r.rule === 'ece-drift')?.target).toBe('≤ 0.56%');
    expect(rows.find((r) => r.rule === 'whole gate')?.target).toBe('≤ 5.00%');
    expect(noChangeGateFails).toEqual([false]);
  }, 120_000);
});

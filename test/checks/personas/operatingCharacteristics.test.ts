/**
 * A fast subset of `npm run oc` for personas: a few runs of answers generated from known
 * vocabularies, through the check's real analyse and gate. Few runs, but a rule that fails
 * identical models or sleeps through a merge fails here.
 */
import { describe, expect, it } from 'vitest';
import { Draw } from '../../../bench/oc/personasGenerator.js';
import {
  LOOK_ALIKE_SCENARIOS,
  LOOK_ALIKE_TWIN_SCENARIOS,
  operatingCharacteristics,
  RUN_SHARE,
  SCENARIOS,
  simulateRun,
} from '../../../bench/oc/personas.js';
import { DEFAULT_TWINS, drawTwinPools } from '../../../bench/oc/personasTwins.js';

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

  it('draws twins from one pool at similarity 1 and none of their own words at 0', () => {
    const same = drawTwinPools(4, 3, { ...DEFAULT_TWINS, twinSimilarity: 1 }, new Draw(5));
    expect(same[1]).toEqual(same[0]);
    expect(same[2]).not.toEqual(same[0]);
    const apart = drawTwinPools(
      4,
      3,
      { ...DEFAULT_TWINS, twinSimilarity: 0, distinct: 1 },
      new Draw(5),
    );
    const first = new Set(apart[0]?.flat());
    expect(apart[1]?.flat().filter((w) => first.has(w))).toEqual([]);
  });

  it('leaves twins from one distribution untested and catches a merge beside twins', () => {
    // Seeds chosen once, 200 swaps (the fewest at which a rule can fail is 120).
    const tiny = LOOK_ALIKE_TWIN_SCENARIOS.find((s) => s.name.includes('one distribution'));
    const merge = LOOK_ALIKE_TWIN_SCENARIOS.find(
      (s) => s.name.includes('merges') && s.probes === 8,
    );
    if (!tiny || !merge) throw new Error('no twin scenario');
    const settings = { personas: { permutations: 200 } };
    const quiet = simulateRun(tiny, 8_000, settings);
    const pair = quiet.section.comparison?.pairs.find((p) => p.a === 'boats' && p.b === 'gardens');
    expect(pair?.separated).toBe(false);
    expect(quiet.findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const merged = simulateRun(merge, 8_000, settings);
    expect(
      merged.findings.some(
        (f) => f.rule === 'merged-pair' && f.values?.a === 'music' && f.values?.b === 'taxes',
      ),
    ).toBe(true);
  });

  it('holds twins whose two models draw pools of their own, and still names a merge at 4 probes', () => {
    // Each model draws its own pools from the same settings: alike in distribution, but at a
    // probe or two the candidate's twins share more words by chance. Against the swaps alone
    // these runs (seed 45 of `npm run oc`, runs 37, 63, 89 and 96) failed min-recognition or
    // merged-pair on the twins with a one-sided p between 0.012 and 0.017, above the rule's
    // 0.0083: an adjusted p never below the test's own passes them.
    const own = LOOK_ALIKE_TWIN_SCENARIOS.find((s) => s.name.includes('own pools, similarity 0.7'));
    const merge = LOOK_ALIKE_TWIN_SCENARIOS.find(
      (s) => s.name.includes('merges') && s.probes === 4,
    );
    if (!own || !merge) throw new Error('no twin scenario');
    for (const r of [37, 63, 89, 96]) {
      const { section, findings } = simulateRun(own, 45 * 100_003 + r);
      expect(findings.filter((f) => f.severity === 'fail')).toEqual([]);
      const comparison = section.comparison;
      for (const t of [...(comparison?.pairs ?? []), ...(comparison?.recognition ?? [])]) {
        if (t.adjusted === null || t.adjusted === undefined || t.p === null) continue;
        expect(t.adjusted).toBeGreaterThanOrEqual(t.p);
      }
    }
    for (const r of [0, 1]) {
      const { findings } = simulateRun(merge, 45 * 100_003 + r);
      expect(
        findings.some(
          (f) => f.rule === 'merged-pair' && f.values?.a === 'music' && f.values?.b === 'taxes',
        ),
      ).toBe(true);
    }
  }, 60_000);
});

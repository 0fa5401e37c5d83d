import { CHECKS, type BuiltInConfig } from '../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analyse.js';
import {
  dragonBudgetSplit,
  driftFalseAlarmRate,
  dragonRuleCards,
  ruleFalseAlarmRate,
  seedsNeeded,
  smallestDetectedRise,
} from '../../../src/checks/dragon/rules.js';
import type { CheckContext } from '../../../src/checks/types.js';
import { loadConfig } from '../../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../../src/checks/builtIn.js';
import { definitionsFor, simulatedGames } from './simulated.js';

function context(
  extra: { path: string[]; value: unknown }[] = [],
  candidate = true,
): CheckContext<BuiltInConfig> {
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'prod:7b', source: 'test' },
      ...(candidate ? [{ path: ['models', 'candidate'], value: 'next:7b', source: 'test' }] : []),
      ...extra.map((e) => ({ ...e, source: 'test' })),
    ],
  });
  return {
    config: loaded.config,
    baseDir: loaded.baseDir,
    models: { baseline: 'prod:7b', candidate: candidate ? 'next:7b' : null },
  };
}

describe('the dragon rules as tests', () => {
  it('split the check share of the budget between its failing rules', () => {
    // 5% over three checks, then two rules (ece-increase, brier-above-chance).
    expect(ruleFalseAlarmRate(context().config)).toBeCloseTo(0.05 / 3 / 2, 15);
    // A limit set adds a failing rule.
    const withLimit = context([{ path: ['dragon', 'gate', 'maxEce'], value: 0.3 }]);
    expect(ruleFalseAlarmRate(withLimit.config)).toBeCloseTo(0.05 / 3 / 3, 15);
  });

  it('give the nightly drift rule its part of the share when a history is kept', () => {
    const history = { path: ['output', 'history'], value: 'history.jsonl' };
    // With a candidate the drift rule never runs: the split is unchanged.
    expect(dragonBudgetSplit(context([history]).config)).toEqual({
      rule: 0.05 / 3 / 2,
      drift: null,
    });
    // One model and a history: three failing rules share 1.67%, 0.56% each.
    const nightly = context([history], false).config;
    expect(ruleFalseAlarmRate(nightly)).toBeCloseTo(0.05 / 9, 15);
    expect(driftFalseAlarmRate(nightly)).toBeCloseTo(0.05 / 9, 15);
    // history.alpha chosen: taken out of the share, the rest split between the other two.
    const chosen = context([history, { path: ['history', 'alpha'], value: 0.01 }], false).config;
    expect(driftFalseAlarmRate(chosen)).toBe(0.01);
    expect(ruleFalseAlarmRate(chosen)).toBeCloseTo((0.05 / 3 - 0.01) / 2, 15);
    // The parts always add up to the check's share.
    const split = dragonBudgetSplit(chosen);
    expect(2 * split.rule + (split.drift ?? 0)).toBeCloseTo(0.05 / 3, 15);
    // A part as large as the whole share leaves nothing for the other rules: bad input.
    const greedy = context([history, { path: ['history', 'alpha'], value: 0.02 }], false).config;
    expect(() => ruleFalseAlarmRate(greedy)).toThrow(
      /history\.alpha: 0\.02 is the drift rule's part of the dragon check's share .*must be below it/,
    );
  });

  it('state the smallest rise detected with 80% power, by hand', () => {
    // SE 0.02, α = 0.05/6: z(1 − α) = 2.3940, z(0.8) = 0.8416. Beyond the threshold 0.05 by
    // 0.8416 SE → 0.06683; beyond 0 by (2.3940 + 0.8416) SE → 0.06471. The larger holds.
    expect(smallestDetectedRise(0.02, 0.05 / 6, 0.05)).toBeCloseTo(0.06683, 4);
    expect(smallestDetectedRise(0.04, 0.05 / 6, 0.05)).toBeCloseTo(3.2356 * 0.04, 3);
    // 2^−7 = 0.0078 ≤ 0.0083 < 2^−6: seven paired seeds at least.
    expect(seedsNeeded(0.05 / 6)).toBe(7);
  });

  it('give one card per failing rule with its rate and what it detects at this run', () => {
    const seeds = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
    const definitions = definitionsFor({ seeds, bootstrap: 200 });
    const records = [
      ...simulatedGames('prod:7b', { policy: 'careful' }, seeds),
      ...simulatedGames('next:7b', { policy: 'careful' }, seeds),
    ];
    const section = analyseDragon(records, definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const cards = dragonRuleCards(section, context());
    expect(cards.map((c) => c.rule)).toEqual(['ece-increase', 'brier-above-chance']);
    for (const card of cards) {
      expect(card.falseAlarmRate).toBeCloseTo(0.05 / 6, 15);
      expect(card.falseAlarmBasis).toMatch(/^one-sided paired permutation test at 0\.83%/);
    }
    expect(cards[0]?.falseAlarmBasis).toMatch(
      /simulated at 10 seeds: 3 of 600 runs of two identical players failed/,
    );
    expect(cards[0]?.detects).toMatch(/^an ECE rise of 0\.\d{3} over 10 seeds$/);
    expect(cards[1]?.detects).toMatch(
      /^a Brier rise of 0\.\d{3} over 10 seeds, ending above 0\.25$/,
    );

    // Nightly without a previous report: nothing is compared, so no comparison card; with one,
    // the cards are there. Limits bring their own.
    const alone = analyseDragon(records, definitions, { baseline: 'prod:7b', candidate: null });
    expect(dragonRuleCards(alone, context([], false))).toEqual([]);
    const nightly = context(
      [
        { path: ['dragon', 'gate', 'previousReport'], value: 'last/report.json' },
        { path: ['dragon', 'gate', 'maxBrier'], value: 0.2 },
      ],
      false,
    );
    expect(dragonRuleCards(alone, nightly).map((c) => c.rule)).toEqual([
      'ece-increase',
      'brier-above-chance',
      'max-brier',
    ]);
  });

  it('say a run with too few paired seeds cannot fail', () => {
    const seeds = [0, 1, 2, 3, 4];
    const definitions = definitionsFor({ seeds, bootstrap: 200 });
    const section = analyseDragon(
      [
        ...simulatedGames('prod:7b', { policy: 'careful' }, seeds),
        ...simulatedGames('next:7b', { policy: 'overconfident' }, seeds),
      ],
      definitions,
      { baseline: 'prod:7b', candidate: 'next:7b' },
    );
    const cards = dragonRuleCards(section, context());
    expect(cards[0]?.detects).toBe(
      'nothing: with 5 paired seeds the smallest p-value is 0.0313, above 0.0083; at least 7 seeds are needed',
    );
  });
});

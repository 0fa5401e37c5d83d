import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analyse.js';
import { gateDragon } from '../../../src/checks/dragon/gate.js';
import { dragonSettingsSchema } from '../../../src/checks/dragon/settings.js';
import { definitionsFor, simulatedGames } from './simulated.js';

const SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const definitions = definitionsFor({ seeds: SEEDS, bootstrap: 200 });
const gate = dragonSettingsSchema.parse({}).gate;
const careful = simulatedGames('prod:7b', { policy: 'careful' }, SEEDS);
const carefulToo = simulatedGames('next:7b', { policy: 'careful' }, SEEDS);
const overconfident = simulatedGames('next:7b', { policy: 'overconfident' }, SEEDS);

const rules = (findings: { rule: string; severity: string }[]) =>
  findings.map((f) => `${f.rule}:${f.severity}`).sort();

describe('gate rules with a candidate', () => {
  it('fail on a worse ECE (interval excluding 0) and a Brier above chance; warn on known walls', () => {
    const section = analyseDragon([...careful, ...overconfident], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const findings = gateDragon(section, gate);
    expect(rules(findings)).toEqual([
      'brier-above-chance:fail',
      'ece-increase:fail',
      'known-wall-repeats:warn',
    ]);
    const ece = findings.find((f) => f.rule === 'ece-increase');
    expect(ece?.message).toMatch(
      /^next:7b is less well calibrated than the baseline: ECE 0\.\d{3} vs 0\.\d{3} over 10 paired games \(seeds 0–9\) \(\+0\.\d{3}, 95% paired interval \[\+0\.\d{3}, \+0\.\d{3}\]; one-sided paired permutation p = 0\.00\d{2}, a regression at p ≤ 0\.0083\)/,
    );
    // The ECEs quoted are those of the paired games, the same games as the difference.
    expect(ece?.values?.['after']).toBeCloseTo(section.candidate?.ece?.value ?? Number.NaN, 12);
  });

  it('pass two equally careful models', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    expect(gateDragon(section, gate)).toEqual([]);
  });

  it('apply absolute limits to the candidate as tests: fail beyond the noise, warn within it', () => {
    const calm = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    // A careful model's ECE is a few hundredths: above 0.001, but its interval reaches it.
    expect(rules(gateDragon(calm, { ...gate, maxEce: 0.001 }))).toEqual(['max-ece:warn']);
    // Its Brier score (~0.17) is far above 0.01 on every resample.
    expect(rules(gateDragon(calm, { ...gate, maxBrier: 0.01 }))).toEqual(['max-brier:fail']);
    const wild = analyseDragon([...careful, ...overconfident], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const findings = gateDragon(wild, { ...gate, maxEce: 0.2 }).filter((f) => f.rule === 'max-ece');
    expect(findings.map((f) => f.severity)).toEqual(['fail']);
    expect(findings[0]?.values?.['model']).toBe('next:7b');
    expect(findings[0]?.message).toMatch(
      /98\.3% interval \[0\.\d{3}, 0\.\d{3}\]\), above the limit of 0\.200\.$/,
    );
  });

  it('warn or fail only beyond the limit, not on a rise equal to it', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const { comparison } = section;
    if (!comparison?.ece || !comparison.knownWallRepeats) throw new Error('comparison expected');
    // A rise with its interval's low end; the failing rules read the p-value, the warning the
    // interval: a low end above 0 goes with a small p here.
    const measure = (before: number, after: number, low: number) => ({
      before,
      after,
      difference: { value: after - before, low, high: after - before + 0.05 },
      pValue: low > 0 ? 0.001 : 0.2,
    });
    const judge = (changes: Partial<typeof comparison>) =>
      rules(gateDragon({ ...section, comparison: { ...comparison, ...changes } }, gate));
    // Known-wall repeats 3 of 10 moves → 4 of 10: exactly the 10 points allowed, although
    // 0.4 − 0.3 is 0.10000000000000003 in floating point. 41 of 100 is beyond.
    expect(judge({ knownWallRepeats: measure(3 / 10, 4 / 10, 0.01) })).toEqual([]);
    expect(judge({ knownWallRepeats: measure(30 / 100, 41 / 100, 0.01) })).toEqual([
      'known-wall-repeats:warn',
    ]);
    // Beyond the limit but the interval reaches 0: said, not counted.
    expect(judge({ knownWallRepeats: measure(30 / 100, 41 / 100, -0.01) })).toEqual([
      'known-wall-repeats:info',
    ]);
    // An ECE rise of exactly the allowed 0.05 (0.55 − 0.5 = 0.050000000000000044).
    expect(judge({ ece: measure(0.5, 0.55, 0.01) })).toEqual([]);
    expect(judge({ ece: measure(0.5, 0.56, 0.01) })).toEqual(['ece-increase:fail']);
    expect(judge({ ece: measure(0.5, 0.56, -0.01) })).toEqual(['ece-increase:info']);
    // Brier above chance from below it: fails only with the paired interval above 0.
    expect(judge({ brier: measure(0.24, 0.3, 0.02) })).toEqual(['brier-above-chance:fail']);
    expect(judge({ brier: measure(0.24, 0.3, -0.02) })).toEqual(['brier-above-chance:info']);
    expect(judge({ brier: measure(0.26, 0.3, 0.02) })).toEqual([]);
  });

  it('make the verdict inconclusive when a series is perturbed or made no move', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const candidate = section.candidate;
    if (!candidate) throw new Error('no candidate');
    const broken = {
      ...section,
      candidate: { ...candidate, perturbed: true, timeouts: 40, timeoutRate: 0.08, moves: 0 },
      instrument: {
        ranked: false,
        order: ['overconfident', 'careful'],
        separations: [
          {
            worse: 'overconfident',
            better: 'careful',
            difference: { value: -0.01, low: -0.05, high: 0.03 },
            separated: false,
          },
        ],
      },
    };
    expect(rules(gateDragon(broken, gate))).toEqual([
      'instrument-control:inconclusive',
      'no-moves:inconclusive',
      'perturbed:inconclusive',
    ]);
  });
});

describe('nightly mode (one model, a previous report)', () => {
  const previousRun = analyseDragon(careful, definitions, { baseline: 'prod:7b', candidate: null });
  // What a stored report.json gives back.
  const previous = JSON.parse(
    JSON.stringify({ schema: 'model-gate.report/1', checks: { dragon: previousRun } }),
  );

  it('fails when the model now states confidence worse than last time', () => {
    const tonight = simulatedGames('prod:7b', { policy: 'overconfident' }, SEEDS);
    const section = analyseDragon(tonight, definitions, { baseline: 'prod:7b', candidate: null });
    const findings = gateDragon(section, gate, previous);
    expect(rules(findings)).toEqual([
      'brier-above-chance:fail',
      'ece-increase:fail',
      'known-wall-repeats:warn',
    ]);
    expect(findings.find((f) => f.rule === 'ece-increase')?.message).toMatch(
      /than the previous report/,
    );
  });

  it('passes an unchanged model, given the report or its dragon section', () => {
    const section = analyseDragon(careful, definitions, { baseline: 'prod:7b', candidate: null });
    expect(gateDragon(section, gate, previous)).toEqual([]);
    expect(gateDragon(section, gate, previous.checks.dragon)).toEqual([]);
  });

  it('is inconclusive, saying so, with a report measured under other rules or none', () => {
    const section = analyseDragon(careful, definitions, { baseline: 'prod:7b', candidate: null });
    const other = { ...previous.checks.dragon, walls: 30 };
    const findings = gateDragon(section, gate, other);
    expect(rules(findings)).toEqual(['previous-report:inconclusive']);
    expect(findings[0]?.message).toMatch(/walls 30 → 40/);
    expect(findings[0]?.message).toMatch(
      /Nothing was compared \(ECE, Brier score, known-wall moves\)/,
    );
    // A whole report without a dragon section, and the job's null for the same thing.
    expect(rules(gateDragon(section, gate, { checks: {} }))).toEqual([
      'previous-report:inconclusive',
    ]);
    const none = gateDragon(section, gate, null);
    expect(rules(none)).toEqual(['previous-report:inconclusive']);
    expect(none[0]?.message).toMatch(
      /^The previous report has no dragon section\. Nothing was compared/,
    );
  });

  it('is inconclusive for every comparison rule when no seed is in common', () => {
    // Last night: a careful model on seeds 0–9. Tonight: overconfident on seeds 20–29, an ECE
    // far higher — but on other mazes, so nothing can be said about a change.
    const otherSeeds = [20, 21, 22, 23, 24, 25, 26, 27, 28, 29];
    const tonight = analyseDragon(
      simulatedGames('prod:7b', { policy: 'overconfident' }, otherSeeds),
      definitionsFor({ seeds: otherSeeds, bootstrap: 200 }),
      { baseline: 'prod:7b', candidate: null },
    );
    const findings = gateDragon(tonight, gate, previous);
    expect(rules(findings)).toEqual([
      'brier-above-chance:inconclusive',
      'ece-increase:inconclusive',
      'known-wall-repeats:inconclusive',
    ]);
    expect(findings[0]?.message).toBe(
      'prod:7b could not be compared with the previous report: no seed was finished by both (this series: 20–29; the previous report: 0–9). Nothing was compared; play the same seeds.',
    );
  });

  it('compares only the paired games and says which were left out', () => {
    // Tonight: seeds 2–11, overconfident. Paired: 2–9.
    const seeds = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
    const tonight = analyseDragon(
      simulatedGames('prod:7b', { policy: 'overconfident' }, seeds),
      definitionsFor({ seeds, bootstrap: 200 }),
      { baseline: 'prod:7b', candidate: null },
    );
    const findings = gateDragon(tonight, gate, previous);
    const paired = findings.find((f) => f.rule === 'paired-games');
    expect(paired?.message).toBe(
      'prod:7b is compared with the previous report over 8 paired games (seeds 2–9); not compared: seeds 0–1 played only by the previous report, seeds 10–11 played only in this series.',
    );
    const ece = findings.find((f) => f.rule === 'ece-increase');
    expect(ece?.severity).toBe('fail');
    expect(ece?.values?.['pairedGames']).toBe(8);
    expect(ece?.message).toMatch(/over 8 paired games \(seeds 2–9\); not compared/);
  });

  it('says the Brier score was not compared with a report that lacks per-game sums', () => {
    const old = JSON.parse(JSON.stringify(previous));
    for (const g of old.checks.dragon.baseline.games) {
      delete g.brierSum;
      delete g.knownWallRepeats;
    }
    const section = analyseDragon(careful, definitions, { baseline: 'prod:7b', candidate: null });
    const findings = gateDragon(section, gate, old);
    expect(rules(findings)).toEqual(['brier-above-chance:inconclusive']);
    expect(findings[0]?.message).toMatch(
      /Compared: the ECE over 10 paired games \(seeds 0–9\); not compared: Brier score, known-wall moves\.$/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import { analyseDragon, compareSeries } from '../../../src/checks/dragon/analysis.js';
import { dragonGate } from '../../../src/checks/dragon/gate.js';
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
    const findings = dragonGate(section, gate);
    expect(rules(findings)).toEqual([
      'brier-above-chance:fail',
      'ece-increase:fail',
      'known-wall-repeats:warn',
    ]);
    const ece = findings.find((f) => f.rule === 'ece-increase');
    expect(ece?.message).toMatch(
      /^next:7b is less well calibrated than the baseline: ECE 0\.\d{3} vs 0\.\d{3}/,
    );
    expect(ece?.message).toMatch(/10 paired games, 95% interval \[\+0\.\d{3}, \+0\.\d{3}\]/);
  });

  it('pass two equally careful models', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    expect(dragonGate(section, gate)).toEqual([]);
  });

  it('apply absolute limits to the candidate', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const findings = dragonGate(section, { ...gate, maxEce: 0.001, maxBrier: 0.01 });
    expect(rules(findings)).toEqual(['max-brier:fail', 'max-ece:fail']);
    expect(findings[0]?.values?.['model']).toBe('next:7b');
  });

  it('warn or fail only beyond the limit, not on a rise equal to it', () => {
    const section = analyseDragon([...careful, ...carefulToo], definitions, {
      baseline: 'prod:7b',
      candidate: 'next:7b',
    });
    const { baseline, candidate, comparison } = section;
    if (!baseline || !candidate || !comparison) throw new Error('comparison expected');
    // Known-wall repeats 3 of 10 moves → 4 of 10: exactly the 10 points allowed, although
    // 0.4 − 0.3 is 0.10000000000000003 in floating point. 41 of 100 is beyond.
    const repeats = (before: number, after: number) => {
      const b = { ...baseline, knownWallRepeatRate: before };
      const a = { ...candidate, knownWallRepeatRate: after };
      const c = compareSeries(b, a, { bootstrapReplicates: 200, bootstrapSeed: 1 });
      return rules(dragonGate({ ...section, baseline: b, candidate: a, comparison: c }, gate));
    };
    expect(repeats(3 / 10, 4 / 10)).toEqual([]);
    expect(repeats(30 / 100, 41 / 100)).toEqual(['known-wall-repeats:warn']);
    // An ECE rise of exactly the allowed 0.05 (0.55 − 0.5 = 0.050000000000000044).
    const ece = (value: number) =>
      rules(
        dragonGate(
          {
            ...section,
            comparison: { ...comparison, eceDifference: { value, low: 0.01, high: 0.1 } },
          },
          gate,
        ),
      );
    expect(ece(0.55 - 0.5)).toEqual([]);
    expect(ece(0.06)).toEqual(['ece-increase:fail']);
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
      instrument: { ranked: false, order: ['overconfident', 'careful'] },
    };
    expect(rules(dragonGate(broken, gate))).toEqual([
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
    const findings = dragonGate(section, gate, previous);
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
    expect(dragonGate(section, gate, previous)).toEqual([]);
    expect(dragonGate(section, gate, previous.checks.dragon)).toEqual([]);
  });

  it('refuses to compare with a report measured under other rules', () => {
    const section = analyseDragon(careful, definitions, { baseline: 'prod:7b', candidate: null });
    const other = { ...previous.checks.dragon, walls: 30 };
    const findings = dragonGate(section, gate, other);
    expect(rules(findings)).toEqual(['previous-report:warn']);
    expect(findings[0]?.message).toMatch(/walls 30 → 40/);
    expect(rules(dragonGate(section, gate, { checks: {} }))).toEqual(['previous-report:warn']);
  });
});

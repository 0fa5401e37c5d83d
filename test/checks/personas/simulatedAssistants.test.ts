/**
 * Simulated assistants whose truth is known: the scenario says which assistants answer from
 * one vocabulary, so the analysis must find exactly those pairs, and nothing when all differ.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type PersonasCatalogue, readCatalogue } from '../../../src/checks/personas/catalogue.js';
import { gatePersonas } from '../../../src/checks/personas/gate.js';
import type { PersonasModelResult } from '../../../src/checks/personas/section.js';
import { simulatedRecords } from './simulated.js';
import { analyse, BUDGET, gate } from './records.js';

const file = path.resolve('fixtures/personas/catalogue.yml');
const everyone = ['technique', 'flavour', 'sourcing', 'planning', 'taste', 'recipe-review'];
const settings = { vectors: 'tfidf' as const, permutations: 500, seed: 7 };

let catalogue: PersonasCatalogue;
beforeAll(async () => {
  catalogue = await readCatalogue(file, 'fixtures/personas/catalogue.yml');
});

function measure(model: string, block: Record<string, unknown>): PersonasModelResult {
  const records = simulatedRecords(catalogue, model, { catalogue: file, ...block });
  const section = analyse(records, catalogue, settings, model);
  const result = section.models[0];
  if (!result) throw new Error('no result');
  return result;
}

describe('two assistants sharing one vocabulary (the paraphrase twin)', () => {
  let result: PersonasModelResult;
  beforeAll(() => {
    result = measure('sim-base:1b', { 'same-voice': [['flavour', 'taste']] });
  });

  it('finds that pair, confused in both directions', () => {
    const pair = result.mostConfusedPair;
    expect([pair?.a, pair?.b]).toEqual(['flavour', 'taste']);
    expect(pair?.aAsB).toBeGreaterThan(0);
    expect(pair?.bAsA).toBeGreaterThan(0);
    expect(pair?.merged).toBe(true);
    expect(result.confusedPairs.filter((p) => p.merged).map((p) => `${p.a}/${p.b}`)).toEqual([
      'flavour/taste',
    ]);
    expect(result.controls.find((c) => c.control === 'taste')?.verdict).toBe('as-expected');
  });

  it('recognises every other assistant', () => {
    for (const r of result.recognition) {
      if (r.assistant === 'flavour' || r.assistant === 'taste') continue;
      expect(r.share, r.assistant).toBeGreaterThanOrEqual(0.75);
    }
    // flavour counted up to its paraphrase: its answers stay within the pair
    expect(result.recognition.find((r) => r.assistant === 'flavour')?.shareUpToControls).toBe(1);
  });

  it('scores well above the reference, with a small permutation p-value', () => {
    expect(result.chance).toBeCloseTo(1 / 6, 15);
    expect(result.accuracy).toBeGreaterThanOrEqual(0.6);
    // 500 relabellings, none as good: p = 1/501
    expect(result.permutation.p).toBeCloseTo(1 / 501, 12);
    expect(result.permutation.meanAccuracy).toBeLessThan(0.3);
  });

  it('names the twin pair as converging answers from differing prompts', () => {
    const names = result.distances.converging.map((p) => `${p.a}/${p.b}`);
    expect(names).toContain('flavour/taste');
    expect(result.distances.pairs).toHaveLength(15);
  });
});

describe('identical assistants', () => {
  it('without a probe effect, score near chance and no significance', () => {
    const result = measure('sim-same:1b', { 'same-voice': [everyone], 'probe-share': 0 });
    expect(Math.abs((result.accuracy ?? 1) - result.chance)).toBeLessThanOrEqual(0.1);
    expect(result.permutation.p).toBeGreaterThan(0.05);
  });

  it('with probes pulling answers together, fall below chance and the stratified null says so', () => {
    // Each assistant answers each probe once, so an answer's own centroid holds no answer to
    // the same probe while every other centroid holds one: identical assistants lose their
    // answers to the others. The permutation null keeps that design and is not beaten.
    const result = measure('sim-same:1b', { 'same-voice': [everyone] });
    expect(result.accuracy).toBeLessThan(result.chance);
    expect(result.permutation.p).toBeGreaterThan(0.05);
    expect(result.notes.some((n) => n.includes('below chance'))).toBe(true);
  });

  it('report the paraphrase control as an instrument problem only when it is not confused', () => {
    const apart = measure('sim-apart:1b', {});
    expect(apart.accuracy).toBe(1);
    expect(apart.controls.find((c) => c.control === 'taste')?.verdict).toBe('instrument-problem');
    expect(apart.controls.find((c) => c.control === 'recipe-review')?.verdict).toBe('separated');
  });
});

describe('upgrade comparison', () => {
  function compare(
    baselineBlock: Record<string, unknown>,
    candidateBlock: Record<string, unknown>,
  ) {
    const records = [
      ...simulatedRecords(catalogue, 'sim-base:1b', { catalogue: file, ...baselineBlock }),
      ...simulatedRecords(catalogue, 'sim-next:2b', { catalogue: file, ...candidateBlock }),
    ];
    return analyse(records, catalogue, settings, 'sim-base:1b', 'sim-next:2b');
  }

  it('names the pair the candidate merged and fails the gate on it', () => {
    const section = compare(
      { 'same-voice': [['flavour', 'taste']] },
      {
        'same-voice': [
          ['flavour', 'taste'],
          ['technique', 'sourcing'],
        ],
      },
    );
    expect(section.comparison?.newlyMerged.map((p) => `${p.a}/${p.b}`)).toEqual([
      'technique/sourcing',
    ]);
    const findings = gatePersonas(section, gate, BUDGET);
    const merged = findings.filter((f) => f.rule === 'merged-pair');
    expect(merged).toHaveLength(1);
    expect(merged[0]?.severity).toBe('fail');
    expect(merged[0]?.message).toMatch(/^sim-next:2b merges technique and sourcing: /);
    expect(merged[0]?.message).toMatch(
      /against 0 of 16 on sim-base:1b \(0\.0%\)\. One-sided Fisher p = /,
    );
    // The planted paraphrase is confused on both models and never fails the gate.
    expect(findings.some((f) => JSON.stringify(f.values).includes('"taste"'))).toBe(false);
    // Accuracy drops by far more than 15 points: a warning beside the failures.
    expect(findings.find((f) => f.rule === 'accuracy-drop')?.severity).toBe('warn');
  });

  it('fails an assistant whose recognition falls below min-recognition', () => {
    const section = compare(
      { 'same-voice': [['flavour', 'taste']] },
      { 'same-voice': [['flavour', 'taste']], 'own-share': 0.05 },
    );
    const byAssistant = new Map(section.comparison?.recognition.map((r) => [r.assistant, r]));
    const findings = gatePersonas(section, gate, BUDGET).filter(
      (f) => f.rule === 'min-recognition',
    );
    for (const finding of findings) {
      const change = byAssistant.get(String(finding.values?.assistant));
      expect(change?.baselineGated).toBeGreaterThanOrEqual(0.5);
      expect(change?.candidateGated).toBeLessThan(0.5);
      expect(change?.control).toBe(false);
    }
    expect(findings.length).toBeGreaterThan(0);
  });

  it('never fails on a control: an inverse-posture control merging with its twin is reported', () => {
    const section = compare(
      { 'same-voice': [['flavour', 'taste']] },
      { 'same-voice': [['flavour', 'taste', 'recipe-review']] },
    );
    const findings = gatePersonas(section, gate, BUDGET);
    expect(findings.filter((f) => f.severity === 'fail')).toEqual([]);
    const info = findings.filter((f) => f.rule === 'inverse-control');
    expect(info.map((f) => f.severity)).toEqual(['info']);
    expect(info[0]?.message).toMatch(
      /^the inverse-posture control recipe-review is confused with flavour on sim-next:2b but was told apart from it on sim-base:1b/,
    );
  });

  it('passes an unchanged model', () => {
    const block = { 'same-voice': [['flavour', 'taste']] };
    const section = compare(block, block);
    // Different model names draw different answers, yet the structure holds.
    expect(gatePersonas(section, gate, BUDGET)).toEqual([]);
  });
});

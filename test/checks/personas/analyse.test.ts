import { describe, expect, it } from 'vitest';
import { comparisonWithPrevious, gatePersonas } from '../../../src/checks/personas/gate.js';
import { personasLevels } from '../../../src/checks/personas/tests.js';
import { analyse, answerRecord, BUDGET, catalogueFrom, gate, recordsFor } from './records.js';

const catalogue = catalogueFrom(`
language: en
assistants:
  plot: "Shape the story."
  style: "Work on the sentence."
probes: ["one", "two"]
`);
const settings = { vectors: 'tfidf' as const, permutations: 100, seed: 7 };
const answers = {
  plot: ['chapter twist', 'chapter arc'],
  style: ['rhythm melody', 'rhythm cadence'],
};

describe('analysePersonas: which records count', () => {
  it('prefers an ok answer over a failed attempt, counts statuses, leaves stale prompts out', () => {
    const records = [
      answerRecord(catalogue, 'm', { persona: 'plot', probe: 0, text: '', status: 'error' }),
      ...recordsFor(catalogue, 'm', answers),
      {
        ...answerRecord(catalogue, 'm', { persona: 'style', probe: 1, text: 'old' }),
        prompt_sha256: '0'.repeat(64),
      },
      answerRecord(catalogue, 'other', { persona: 'plot', probe: 0, text: 'another model' }),
    ];
    const result = analyse(records, catalogue, settings).models[0];
    expect(result?.answers).toEqual({
      expected: 4,
      found: 4,
      ok: 4,
      invalid: 0,
      timeout: 0,
      error: 0,
    });
    expect(result?.accuracy).toBe(1);
    expect(result?.notes.join(' ')).toContain(
      '1 record(s) of m were written for prompts that are no longer in the catalogue',
    );
  });

  it('leaves invalid and missing answers out of the attribution and says so', () => {
    const records = [
      answerRecord(catalogue, 'm', { persona: 'plot', probe: 0, text: 'chapter twist' }),
      answerRecord(catalogue, 'm', { persona: 'plot', probe: 1, text: 'chapter arc' }),
      answerRecord(catalogue, 'm', { persona: 'style', probe: 0, text: '', status: 'invalid' }),
    ];
    const result = analyse(records, catalogue, settings).models[0];
    expect(result?.answers).toMatchObject({ expected: 4, found: 3, ok: 2, invalid: 1 });
    expect(result?.attributed).toBe(2);
    expect(result?.recognition.map((r) => r.answers)).toEqual([2, 0]);
    expect(result?.notes.join(' ')).toContain('1 of 4 answers of m are not in the sample log');
  });

  it('uses stored embeddings in embed mode, and falls back to TF-IDF when one is missing', () => {
    // Vectors contradict the words: plot/0 points like style. Embed mode must follow them.
    // plot/0 = (0,1), plot/1 = (1,0), style/0 = (0,1), style/1 = (0.1, 1).
    const vectors = [
      [0, 1],
      [1, 0],
      [0, 1],
      [0.1, 1],
    ];
    const texts = [...answers.plot, ...answers.style];
    const withVectors = ['plot', 'plot', 'style', 'style'].map((persona, i) =>
      answerRecord(catalogue, 'm', {
        persona,
        probe: i % 2,
        text: texts[i] ?? '',
        vector: vectors[i] ?? [],
      }),
    );
    const embed = { ...settings, vectors: 'embed' as const };
    const result = analyse(withVectors, catalogue, embed).models[0];
    expect(result?.vectors).toBe('embed');
    // plot/0 (0,1): plot without it = (1,0) → 0; style = (0.1, 2)/|·| → 0.9988 → style.
    expect(result?.attributions[0]?.attributed).toBe('style');

    const missing = withVectors.map((r, i) => (i === 3 ? { ...r, vector: undefined } : r));
    const fallback = analyse(missing, catalogue, embed).models[0];
    expect(fallback?.vectors).toBe('tfidf');
    expect(fallback?.accuracy).toBe(1);
    expect(fallback?.notes[0]).toMatch(/1 of 4 answers have no stored embedding; TF-IDF was used/);
  });
});

describe('gatePersonas', () => {
  it('calls a run with too many timeouts inconclusive', () => {
    const records = [
      ...recordsFor(catalogue, 'm', { plot: answers.plot, style: answers.style.slice(0, 1) }),
      answerRecord(catalogue, 'm', { persona: 'style', probe: 1, text: '', status: 'timeout' }),
    ];
    const section = analyse(records, catalogue, settings);
    const findings = gatePersonas(section, gate, BUDGET);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['timeouts', 'inconclusive']]);
    expect(findings[0]?.message).toBe(
      'm: 1 of 4 persona answers timed out (25.0%, more than the 5.0% allowed); the attribution is not trusted.',
    );
  });

  it('compares a nightly run with the previous report of the same catalogue', () => {
    const good = analyse(recordsFor(catalogue, 'm', answers), catalogue, settings);
    // tonight the two assistants answer with the same words
    const same = {
      plot: ['rhythm melody', 'rhythm cadence'],
      style: ['rhythm melody', 'rhythm cadence'],
    };
    const tonight = analyse(recordsFor(catalogue, 'm', same), catalogue, settings);
    const rules = gatePersonas(tonight, gate, BUDGET, good).map((f) => `${f.rule}:${f.severity}`);
    // 2 of 2 recognised, then 0 of 2: one-sided Fisher p = 1/6, times 2 assistants (Bonferroni:
    // a previous report holds no answers to swap) = 1/3, far above the rule's level. Two answers
    // per assistant cannot show a drop; the accuracy warning still says what moved.
    expect(rules).toEqual(['accuracy-drop:warn']);
    const levels = personasLevels(tonight.catalogue.assistants, gate, BUDGET);
    const comparison = comparisonWithPrevious(tonight, good, levels);
    expect(comparison?.test.method).toBe('fisher-bonferroni');
    for (const r of comparison?.recognition ?? []) expect(r.adjusted).toBeCloseTo(1 / 3, 12);
    // another catalogue's report is no reference
    const other = { ...good, catalogue: { ...good.catalogue, sha256: 'x' } };
    expect(gatePersonas(tonight, gate, BUDGET, other)).toEqual([]);
    expect(gatePersonas(tonight, gate, BUDGET, { check: 'churn' })).toEqual([]);
  });

  it('warns on an accuracy drop beyond max-accuracy-drop, not on one equal to it', () => {
    const good = analyse(recordsFor(catalogue, 'm', answers), catalogue, settings);
    const withAccuracy = (accuracy: number) => ({
      ...good,
      models: good.models.map((model) => ({ ...model, accuracy })),
    });
    // 13 of 20 → 10 of 20 is a drop of exactly 0.15 (0.5 − 0.65 = −0.15000000000000002).
    const drop = (before: number, after: number) =>
      gatePersonas(withAccuracy(after), gate, BUDGET, withAccuracy(before)).map(
        (f) => `${f.rule}:${f.severity}`,
      );
    expect(drop(13 / 20, 10 / 20)).toEqual([]);
    expect(drop(13 / 20, 9 / 20)).toEqual(['accuracy-drop:warn']);
  });
});

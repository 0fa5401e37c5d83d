/**
 * Empty answers (a thinking-only reply) measured nothing about an assistant: above the share
 * the personas check is inconclusive, and the verdict never reads "recognised in 0%" as a FAIL.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { analysePersonas } from '../../../src/checks/personas/analyse.js';
import { gatePersonas } from '../../../src/checks/personas/gate.js';
import { decideVerdict } from '../../../src/report/verdict.js';
import { answerRecord, BUDGET, catalogueFrom, gate, recordsFor } from './records.js';

const catalogue = catalogueFrom(`
language: en
assistants:
  plot: "Shape the story."
  style: "Work on the sentence."
  facts: "Check every date."
probes: ["one", "two", "three", "four"]
`);
const settings = { vectors: 'tfidf' as const, permutations: 100, seed: 7 };
const answers = {
  plot: ['chapter twist villain', 'chapter arc villain', 'chapter twist ending', 'arc villain'],
  style: ['rhythm melody cadence', 'rhythm cadence', 'melody cadence rhythm', 'rhythm melody'],
  facts: ['date archive source', 'archive source', 'date source archive', 'date archive'],
};
const models = { baseline: 'base', candidate: 'cand' };

/** The candidate answers like the baseline, except `empty` answers of plot come back empty. */
function section(empty: number) {
  const records = [
    ...recordsFor(catalogue, 'base', answers),
    ...recordsFor(catalogue, 'cand', {
      style: answers.style,
      facts: answers.facts,
      plot: answers.plot.slice(empty),
    }).map((r) =>
      r.persona === 'plot'
        ? { ...r, probe: r.probe + empty, key: `plot/probe-${r.probe + empty}` }
        : r,
    ),
  ];
  for (let probe = 0; probe < empty; probe++) {
    records.push(
      answerRecord(catalogue, 'cand', { persona: 'plot', probe, text: '', status: 'invalid' }),
    );
  }
  return analysePersonas(records, catalogue, settings, models, BUDGET);
}

describe('personas: empty answers', () => {
  it('two thinking-only answers of 12 make the check inconclusive, never a FAIL', () => {
    const findings = gatePersonas(section(2), gate, BUDGET);
    const invalid = findings.filter((f) => f.rule === 'invalid-answers');
    expect(invalid).toHaveLength(1);
    expect(invalid[0]?.severity).toBe('inconclusive');
    expect(invalid[0]?.message).toBe(
      'cand: 2 of 12 persona answers were empty or invalid (16.7%, more than the 10.0% allowed); an empty answer says nothing about its assistant, so recognition is not judged. Check personas.max-tokens and think.',
    );
    const verdict = decideVerdict(findings, CHECKS);
    expect(verdict.status).toBe('inconclusive');
    expect(verdict.reasons.some((r) => r.severity === 'fail')).toBe(false);
  });

  it('one assistant left with fewer usable answers than half its probes is not judged', () => {
    // 3 of 12 empty is 25%: under a 30% limit overall, but plot keeps 1 answer of 4, which leave-one-out cannot attribute.
    const findings = gatePersonas(section(3), { ...gate, maxInvalidShare: 0.3 }, BUDGET);
    const invalid = findings.filter((f) => f.rule === 'invalid-answers');
    expect(invalid.map((f) => f.message)).toEqual([
      'cand: plot has 0 attributable answers of 4 (3 answers were empty or invalid); too few to judge whether the assistant is still recognised.',
    ]);
    expect(decideVerdict(findings, CHECKS).status).toBe('inconclusive');
  });

  it('answers within the limits add nothing', () => {
    expect(
      gatePersonas(section(0), gate, BUDGET).filter((f) => f.rule === 'invalid-answers'),
    ).toEqual([]);
  });
});

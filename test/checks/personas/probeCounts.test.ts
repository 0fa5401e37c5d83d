/**
 * Per-probe counts read from attribution rows (the nightly test's dispersion): hand-counted
 * from the rows below.
 */
import { describe, expect, it } from 'vitest';
import { probeCounts } from '../../../src/checks/personas/probeCounts.js';
import type {
  PersonasAssistant,
  PersonasModelResult,
} from '../../../src/checks/personas/section.js';

const assistants: PersonasAssistant[] = [
  { name: 'a', control: null },
  { name: 'b', control: null },
  { name: 'a2', control: { kind: 'paraphrase', of: 'a' } },
];

const row = (assistant: string, probe: number, attributed: string | null) => ({
  assistant,
  probe,
  sample: 0,
  attributed,
  similarity: null,
});

function model(rows: ReturnType<typeof row>[]): PersonasModelResult {
  return { attributions: rows } as unknown as PersonasModelResult;
}

describe('probeCounts', () => {
  const counts = probeCounts(
    assistants,
    model([
      // Probe 0: a recognised once, taken for its control once, for b once.
      row('a', 0, 'a'),
      row('a', 0, 'a2'),
      row('a', 0, 'b'),
      row('b', 0, 'b'),
      // Probe 1: a unattributed, b taken for a twice.
      row('a', 1, null),
      row('b', 1, 'a'),
      row('b', 1, 'a'),
    ]),
  );

  it('credits an assistant with its own and its controls’ attributions, probe by probe', () => {
    expect(counts?.recognised('a')).toEqual([
      { hits: 2, answers: 3 },
      { hits: 0, answers: 1 },
    ]);
    expect(counts?.recognised('b')).toEqual([
      { hits: 1, answers: 1 },
      { hits: 0, answers: 2 },
    ]);
  });

  it('counts crossings both ways out of the two assistants’ answers, unattributed included', () => {
    expect(counts?.crossing('a', 'b')).toEqual([
      { hits: 1, answers: 4 },
      { hits: 2, answers: 3 },
    ]);
  });

  it('is null for a section without attribution rows (pooled counts alone)', () => {
    expect(probeCounts(assistants, model([]))).toBeNull();
  });
});

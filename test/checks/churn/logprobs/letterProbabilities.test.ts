import { describe, expect, it } from 'vitest';
import {
  answeredLetter,
  letterProbabilities,
} from '../../../../src/checks/churn/logprobs/letterProbabilities.js';
import { answerPositionFromOllama } from '../../../../src/checks/churn/logprobs/ollamaLogprobs.js';

const ln = Math.log;

describe('letter probabilities', () => {
  it('sums the tokens of each letter and renormalises over the valid letters at T = 1', () => {
    // A: 0.2 (letter token) + 0.1 (byte token), B: 0.3, "x": 0.4 is not an answer.
    // Valid mass 0.6 → A = 0.3/0.6 = 0.5, B = 0.3/0.6 = 0.5, C = 0.
    const position = {
      lead: '',
      candidates: [
        { text: 'A', logprob: ln(0.2) },
        { text: 'A', logprob: ln(0.1) },
        { text: 'B"}', logprob: ln(0.3) },
        { text: 'x', logprob: ln(0.4) },
      ],
    };
    const p = letterProbabilities(position, ['A', 'B', 'C'], 1);
    expect(p?.['A']).toBeCloseTo(0.5, 12);
    expect(p?.['B']).toBeCloseTo(0.5, 12);
    expect(p?.['C']).toBe(0);
  });

  it('applies the temperature to each token, not to the letter sums', () => {
    // T = 0.5 squares probabilities: A = 0.2² + 0.1² = 0.05, B = 0.3² = 0.09 → A = 0.05/0.14.
    const position = {
      lead: '',
      candidates: [
        { text: 'A', logprob: ln(0.2) },
        { text: 'A', logprob: ln(0.1) },
        { text: 'B', logprob: ln(0.3) },
      ],
    };
    expect(letterProbabilities(position, ['A', 'B'], 0.5)?.A).toBeCloseTo(0.05 / 0.14, 12);
    // T = 2 takes square roots: A = √0.2 + √0.1 = 0.763441, B = √0.3 = 0.547723.
    const a = Math.sqrt(0.2) + Math.sqrt(0.1);
    expect(letterProbabilities(position, ['A', 'B'], 2)?.A).toBeCloseTo(
      a / (a + Math.sqrt(0.3)),
      12,
    );
  });

  it('is greedy at T = 0 and splits an exact tie', () => {
    const position = {
      lead: '',
      candidates: [
        { text: 'A', logprob: ln(0.3) },
        { text: 'B', logprob: ln(0.3) },
        { text: 'C', logprob: ln(0.1) },
      ],
    };
    expect(letterProbabilities(position, ['A', 'B', 'C'], 0)).toEqual({ A: 0.5, B: 0.5, C: 0 });
  });

  it('stays finite for tiny probabilities and small temperatures', () => {
    const position = {
      lead: '',
      candidates: [
        { text: 'A', logprob: -800 },
        { text: 'B', logprob: -801 },
      ],
    };
    // exp(-800/0.1) underflows; the ratio is e^(1/0.1) = e^10 → A = 1/(1 + e^-10).
    expect(letterProbabilities(position, ['A', 'B'], 0.1)?.A).toBeCloseTo(
      1 / (1 + Math.exp(-10)),
      12,
    );
  });

  it('returns null when no candidate answers a valid letter', () => {
    expect(
      letterProbabilities({ lead: '', candidates: [{ text: 'Z', logprob: -1 }] }, ['A', 'B'], 1),
    ).toBeNull();
  });

  it('accepts a letter only when the rest of the token can close the string', () => {
    expect(answeredLetter('B', '', ['A', 'B'])).toBe('B');
    expect(answeredLetter('B"}', '', ['A', 'B'])).toBe('B');
    expect(answeredLetter('BA', '', ['A', 'B'])).toBeNull();
    expect(answeredLetter(' "C', ' "', ['C'])).toBe('C');
    expect(answeredLetter('C', ' "', ['C'])).toBeNull();
  });
});

describe('Ollama logprobs', () => {
  // A reply tokenised as {"  answer  ":  "B  "}, with the server's top-3 alternatives.
  const reply = [
    { token: '{"', logprob: -0.01 },
    { token: 'answer', logprob: -0.01 },
    { token: '":', logprob: -0.02 },
    {
      token: ' "B',
      logprob: ln(0.5),
      top_logprobs: [
        { token: ' "B', logprob: ln(0.5) },
        { token: ' "A', logprob: ln(0.3) },
        { token: ' "', logprob: ln(0.1) },
      ],
    },
    { token: '"}', logprob: -0.001 },
  ];

  it('finds the token that holds the letter and the text before it in that token', () => {
    const position = answerPositionFromOllama(reply);
    expect(position?.lead).toBe(' "');
    expect(position?.candidates).toHaveLength(3);
  });

  it('gives the letter probabilities computed by hand', () => {
    const position = answerPositionFromOllama(reply);
    if (!position) throw new Error('no position');
    // Valid: B 0.5, A 0.3 (' "' alone answers nothing). T = 1: B = 0.5/0.8 = 0.625.
    expect(letterProbabilities(position, ['A', 'B', 'C'], 1)?.B).toBeCloseTo(0.625, 12);
    // T = 0.7: B = 0.5^(1/0.7) / (0.5^(1/0.7) + 0.3^(1/0.7)) = 0.371499 / (0.371499 + 0.179073).
    expect(letterProbabilities(position, ['A', 'B', 'C'], 0.7)?.B).toBeCloseTo(
      0.371499 / (0.371499 + 0.179073),
      5,
    );
  });

  it('uses the chosen token when the server listed no alternatives', () => {
    const bare = reply.map(({ token, logprob }) => ({ token, logprob }));
    expect(
      letterProbabilities(
        answerPositionFromOllama(bare) ?? { lead: '', candidates: [] },
        ['A', 'B'],
        0.7,
      ),
    ).toEqual({ A: 0, B: 1 });
  });

  it('returns null when the reply holds no answer field', () => {
    expect(answerPositionFromOllama([{ token: 'hello', logprob: -1 }])).toBeNull();
  });
});

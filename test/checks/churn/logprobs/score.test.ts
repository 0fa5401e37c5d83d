/**
 * The logprobs estimator's plan and scorer on constructed responses: what is asked, what is
 * recorded, when a record is invalid, and when the run must stop.
 */
import { describe, expect, it } from 'vitest';
import type { ChurnItem } from '../../../../src/checks/churn/items.js';
import { planChurn } from '../../../../src/checks/churn/plan.js';
import { CHECKS } from '../../../../src/checks/builtIn.js';
import { configSchema } from '../../../../src/config/schema.js';
import { InputError } from '../../../../src/errors.js';
import type { ChatResponse } from '../../../../src/providers/types.js';
import type { SampleRecord } from '../../../../src/sampleLog/index.js';
import type { CallOutcome, CallSpec, UnitContext } from '../../../../src/checks/workUnit.js';
import type { ChurnCallRecord } from '../../../../src/checks/churn/records.js';

const item: ChurnItem = {
  id: 'law-01',
  domain: 'law',
  question: 'Who bears the burden of proof?',
  choices: ['The defendant', 'The prosecution', 'The judge'],
  answer: 'B',
  line: 1,
};

function config(churn: Record<string, unknown> = {}) {
  return configSchema(CHECKS).parse({
    models: { baseline: 'a:1b', candidate: 'b:1b' },
    churn: { estimator: 'logprobs', ...churn },
  });
}

function reply(extra: Partial<ChatResponse>, content = '{"answer": "B"}'): CallOutcome {
  return {
    status: 'ok',
    response: {
      content,
      thinking: null,
      doneReason: 'stop',
      promptTokens: 40,
      completionTokens: 6,
      latencyMs: 9,
      ...extra,
    },
    attempts: 1,
    latencyMs: 9,
  };
}

async function score(
  outcome: CallOutcome,
  churn: Record<string, unknown> = {},
  prior: SampleRecord[] = [],
): Promise<{ records: ChurnCallRecord[]; calls: CallSpec[]; complete: boolean }> {
  const [unit] = planChurn([item], config(churn), 'a:1b');
  if (!unit) throw new Error('one unit expected');
  const records: ChurnCallRecord[] = [];
  const calls: CallSpec[] = [];
  const ctx: UnitContext = {
    prior,
    digest: null,
    signal: new AbortController().signal,
    async call(spec) {
      calls.push(spec);
      return outcome;
    },
    async emit(record) {
      records.push(record as ChurnCallRecord);
    },
  };
  const complete = unit.isComplete(prior);
  await unit.execute(ctx);
  return { records, calls, complete };
}

// ln of 0.6, 0.3, 0.1 for the tokens "B", "A", "C\"" at the answer position.
const LN = { a: Math.log(0.3), b: Math.log(0.6), c: Math.log(0.1) };

describe('exact plan', () => {
  it('asks one greedy evaluation per item with the answer probabilities', async () => {
    const units = planChurn([item], config({ topLogprobs: 5 }), 'a:1b');
    expect(units.map((u) => u.key)).toEqual(['law-01#exact']);
    const distribution = { prefix: '{"answer": "', candidates: [{ text: 'B', logprob: 0 }] };
    const { calls } = await score(reply({ answerDistribution: distribution }), { topLogprobs: 5 });
    expect(calls[0]?.request.answerProbabilities).toEqual({ top: 5 });
    expect(calls[0]?.request.options).toMatchObject({ temperature: 0, seed: 42 });
  });

  it('asks again when the log holds probabilities for another temperature', async () => {
    const distribution = { prefix: '{"answer": "', candidates: [{ text: 'B', logprob: 0 }] };
    const first = await score(reply({ answerDistribution: distribution }));
    const logged = first.records;
    expect((await score(reply({ answerDistribution: distribution }), {}, logged)).complete).toBe(
      true,
    );
    const warmer = await score(
      reply({ answerDistribution: distribution }),
      { temperature: 1 },
      logged,
    );
    expect(warmer.complete).toBe(false);
  });
});

describe('exact scorer', () => {
  it('reads the embedded distribution, letter tokens with a closing quote included', async () => {
    const candidates = [
      { text: 'B', logprob: LN.b },
      { text: 'A', logprob: LN.a },
      { text: 'C"', logprob: LN.c },
      { text: 'Z', logprob: Math.log(0.5) },
    ];
    const { records } = await score(
      reply({ answerDistribution: { prefix: '{"answer": "', candidates } }),
      { temperature: 1 },
    );
    // At T = 1 over the valid letters: 0.6 / 0.3 / 0.1 renormalised by their sum 1.0.
    expect(records[0]).toMatchObject({
      status: 'ok',
      estimator: 'embedded-logits',
      estimate_temperature: 1,
      answer: 'B',
      correct: true,
    });
    expect(records[0]?.p_correct).toBeCloseTo(0.6, 12);
    expect(records[0]?.letters?.['C']).toBeCloseTo(0.1, 12);
  });

  it('reads Ollama logprobs at the token that holds the letter', async () => {
    const logprobs = [
      { token: '{"', logprob: 0 },
      { token: 'answer', logprob: 0 },
      { token: '":', logprob: 0 },
      {
        token: ' "A',
        logprob: LN.a,
        top_logprobs: [
          { token: ' "B', logprob: LN.b },
          { token: ' "A', logprob: LN.a },
          { token: ' "C', logprob: LN.c },
        ],
      },
      { token: '"}', logprob: 0 },
    ];
    const { records } = await score(reply({ logprobs }, '{"answer": "A"}'));
    // At T = 0.7: 0.6^(1/0.7) = 0.482029, 0.3^(1/0.7) = 0.179073, 0.1^(1/0.7) = 0.037276;
    // P(B) = 0.482029 / 0.698378 = 0.690212.
    expect(records[0]?.estimator).toBe('ollama-logprobs');
    expect(records[0]?.p_correct).toBeCloseTo(0.690212, 5);
    expect(records[0]?.answer).toBe('B');
  });

  it('marks a reply without an answer value, or without any letter, invalid', async () => {
    const prose = await score(reply({ logprobs: [{ token: 'I think', logprob: -1 }] }, 'I think'));
    expect(prose.records[0]).toMatchObject({
      status: 'invalid',
      reason: 'the reply has no "answer" value to read the letter probabilities at',
      answer: null,
      correct: null,
    });
    const noLetter = await score(
      reply({
        logprobs: [
          { token: '{"answer": "', logprob: 0 },
          { token: 'x', logprob: -0.1, top_logprobs: [{ token: 'x', logprob: -0.1 }] },
        ],
      }),
    );
    expect(noLetter.records[0]?.status).toBe('invalid');
    expect(noLetter.records[0]?.reason).toContain('raise churn.top-logprobs');
  });

  it('stops the run when the provider returned no probabilities at all', async () => {
    await expect(score(reply({}))).rejects.toBeInstanceOf(InputError);
  });

  it('keeps a timeout as a timeout, for the configured temperature', async () => {
    const timeout: CallOutcome = {
      status: 'timeout',
      response: null,
      reason: 'timeout: no answer within 30 s (2 attempts)',
      attempts: 2,
      latencyMs: 60_000,
    };
    const { records } = await score(timeout);
    expect(records[0]).toMatchObject({
      status: 'timeout',
      mode: 'exact',
      estimate_temperature: 0.7,
      answer: null,
    });
    expect(records[0]?.p_correct).toBeUndefined();
  });
});

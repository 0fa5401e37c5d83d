import { describe, expect, it } from 'vitest';
import type { ChurnItem } from '../../../src/checks/churn/items.js';
import { planChurn } from '../../../src/checks/churn/plan.js';
import {
  answerSchema,
  churnPromptHash,
  churnUserPrompt,
  PROMPT_VERSION,
  parseChurnPrompt,
} from '../../../src/checks/churn/prompt.js';
import { readAnswer } from '../../../src/checks/churn/score.js';
import { CHECKS } from '../../../src/checks/builtIn.js';
import { configSchema } from '../../../src/config/schema.js';
import type { ChatRequest } from '../../../src/providers/types.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import type { CallOutcome, CallSpec, UnitContext } from '../../../src/checks/workUnit.js';
import type { ChurnCallRecord } from '../../../src/checks/churn/records.js';

const item: ChurnItem = {
  id: 'law-01',
  domain: 'law',
  question: 'Who bears the burden of proof?\nChoose one.',
  choices: ['The defendant', 'The prosecution', 'The judge'],
  answer: 'B',
  line: 1,
};

function config(churn: Record<string, unknown> = {}) {
  return configSchema(CHECKS).parse({ models: { baseline: 'a:1b', candidate: 'b:1b' }, churn });
}

async function runUnit(
  unit: ReturnType<typeof planChurn>[number],
  outcome: (request: ChatRequest) => CallOutcome,
  prior: SampleRecord[] = [],
): Promise<{ records: ChurnCallRecord[]; calls: CallSpec[] }> {
  const records: ChurnCallRecord[] = [];
  const calls: CallSpec[] = [];
  const ctx: UnitContext = {
    prior,
    digest: 'sha256:abc',
    signal: new AbortController().signal,
    async call(spec) {
      calls.push(spec);
      return outcome(spec.request);
    },
    async emit(record) {
      records.push(record as ChurnCallRecord);
    },
  };
  await unit.execute(ctx);
  return { records, calls };
}

const ok = (content: string, doneReason: string | null = 'stop'): CallOutcome => ({
  status: 'ok',
  response: {
    content,
    thinking: null,
    doneReason,
    promptTokens: 50,
    completionTokens: 5,
    latencyMs: 12,
  },
  attempts: 1,
  latencyMs: 12,
});

describe('plan', () => {
  it('asks K stochastic samples with seed base + k and one greedy sample', () => {
    const units = planChurn([item], config({ samples: 3, baseSeed: 100 }), 'a:1b');
    expect(units.map((u) => u.key)).toEqual(['law-01#0', 'law-01#1', 'law-01#2', 'law-01#greedy']);
    expect(units.every((u) => u.expectedCalls === 1 && u.check === 'churn')).toBe(true);
  });

  it('sends the options of the settings and records them', async () => {
    const units = planChurn([item], config({ samples: 2, baseSeed: 100 }), 'a:1b');
    const second = await runUnit(units[1] as (typeof units)[number], () => ok('{"answer":"B"}'));
    expect(second.calls[0]?.request.options).toEqual({
      temperature: 0.7,
      seed: 101,
      numCtx: 4096,
      numPredict: 32,
      think: false,
    });
    expect(second.calls[0]?.request.format).toEqual(answerSchema(item));
    expect(second.records[0]).toMatchObject({
      key: 'law-01#1',
      sample: 1,
      mode: 'stochastic',
      status: 'ok',
      answer: 'B',
      correct: true,
      digest: 'sha256:abc',
      options: { temperature: 0.7, seed: 101, num_ctx: 4096, num_predict: 32, think: false },
      prompt_sha256: churnPromptHash(item),
    });
    const greedy = await runUnit(units[2] as (typeof units)[number], () => ok('{"answer":"A"}'));
    expect(greedy.calls[0]?.request.options).toMatchObject({ temperature: 0, seed: 42 });
    expect(greedy.records[0]).toMatchObject({ mode: 'greedy', answer: 'A', correct: false });
  });

  it('turns greedy off and thinking on when asked', () => {
    const units = planChurn([item], config({ samples: 2, greedy: false, think: true }), 'a:1b');
    expect(units).toHaveLength(2);
  });

  it('counts a unit complete only for a non-error record with the same prompt and options', async () => {
    const units = planChurn([item], config({ samples: 2 }), 'a:1b');
    const unit = units[0] as (typeof units)[number];
    const done = (await runUnit(unit, () => ok('{"answer":"C"}'))).records[0] as ChurnCallRecord;
    expect(unit.isComplete([done])).toBe(true);
    expect(unit.isComplete([{ ...done, status: 'error' }])).toBe(false);
    expect(unit.isComplete([{ ...done, prompt_sha256: 'f'.repeat(64) }])).toBe(false);
    expect(unit.isComplete([{ ...done, options: { ...done.options, seed: 9 } }])).toBe(false);
    expect(unit.isComplete([{ ...done, status: 'timeout' }])).toBe(true);
  });
});

describe('scorer', () => {
  const unit = planChurn([item], config({ samples: 2 }), 'a:1b')[0] as ReturnType<
    typeof planChurn
  >[number];

  it('keeps invalid and timeout apart, neither counted as wrong', async () => {
    const invalid = (await runUnit(unit, () => ok('{"answer":"D"}'))).records[0];
    expect(invalid).toMatchObject({
      status: 'invalid',
      answer: null,
      correct: null,
      reason: 'answer "D" is not one of A–C',
    });
    const timeout = (
      await runUnit(unit, () => ({
        status: 'timeout',
        response: null,
        reason: 'timed out after 30 s twice',
        attempts: 2,
        latencyMs: 60000,
      }))
    ).records[0];
    expect(timeout).toMatchObject({
      status: 'timeout',
      answer: null,
      correct: null,
      reason: 'timed out after 30 s twice',
      attempts: 2,
    });
  });

  it('explains an empty answer cut by the token budget', () => {
    expect(readAnswer('', 'length', ['A', 'B'], 32)).toEqual({
      reason:
        'empty answer: the token budget ran out (done_reason length, num_predict 32); with thinking on, reasoning may have used it all',
    });
    expect(readAnswer('  ', 'stop', ['A', 'B'], 32)).toEqual({ reason: 'empty answer' });
  });

  it('reads the letter from JSON, tolerating a fence and lower case', () => {
    expect(readAnswer('{"answer": "b"}', 'stop', ['A', 'B'], 32)).toEqual({ answer: 'B' });
    expect(readAnswer('```json\n{"answer": "A"}\n```', 'stop', ['A', 'B'], 32)).toEqual({
      answer: 'A',
    });
    expect(readAnswer('B', 'stop', ['A', 'B'], 32)).toEqual({
      reason: 'not a JSON object with an "answer" field',
    });
    expect(readAnswer('{"answer": "A', 'length', ['A', 'B'], 32)).toEqual({
      reason: 'not a JSON object with an "answer" field (cut off: done_reason length)',
    });
  });
});

describe('prompt', () => {
  it('is versioned, reads back, and hashes what it sends', () => {
    expect(PROMPT_VERSION).toBe('churn-prompt/1');
    expect(parseChurnPrompt(churnUserPrompt(item))).toEqual({
      question: item.question,
      choices: item.choices,
    });
    expect(parseChurnPrompt('What is 2 + 2?')).toBeNull();
    expect(churnPromptHash(item)).toMatch(/^[0-9a-f]{64}$/);
    expect(churnPromptHash({ ...item, choices: [...item.choices, 'The clerk'] })).not.toBe(
      churnPromptHash(item),
    );
    expect(answerSchema(item)).toEqual({
      type: 'object',
      properties: { answer: { type: 'string', enum: ['A', 'B', 'C'] } },
      required: ['answer'],
      additionalProperties: false,
    });
  });
});

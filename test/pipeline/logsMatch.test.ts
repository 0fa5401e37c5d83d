/** The mismatch between a log and a config names what differs: the prompt hash, or which option. */
import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { describeDifferences } from '../../src/pipeline/logsMatch.js';
import type { RecordedOptions } from '../../src/sampleLog/index.js';
import type { WorkUnit } from '../../src/checks/workUnit.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

const options: RecordedOptions = {
  temperature: 0.7,
  seed: 1000,
  num_ctx: 4096,
  num_predict: 32,
  think: false,
};
const HASH = 'a'.repeat(64);

function unit(key: string): WorkUnit {
  return {
    check: 'churn',
    model: 'm:1',
    key,
    expectedCalls: 1,
    expected: { promptSha256: HASH, options },
    isComplete: () => false,
    execute: async () => {},
  };
}

function record(key: string, change: Partial<ChurnCallRecord>): ChurnCallRecord {
  return {
    v: 1,
    kind: 'call',
    check: 'churn',
    model: 'm:1',
    digest: null,
    key,
    sample: 0,
    options,
    prompt_sha256: HASH,
    status: 'ok',
    latency_ms: 1,
    attempts: 1,
    item: key.split('#')[0] as string,
    domain: 'law',
    mode: 'stochastic',
    answer: 'A',
    correct: true,
    ...change,
  };
}

describe('describeDifferences', () => {
  it('says the prompt hash differs, with both hashes shortened', () => {
    const text = describeDifferences(
      [unit('q1#0')],
      [record('q1#0', { prompt_sha256: 'b'.repeat(64) })],
      CHECKS,
    );
    expect(text).toBe(
      'the prompt hash differs (bbbbbbbbbbbb… in the logs, aaaaaaaaaaaa… for this config: the question text, choices, system prompt, probe or prompt version changed)',
    );
  });

  it('names each option that differs, once, with both values', () => {
    const text = describeDifferences(
      [unit('q1#0'), unit('q2#0')],
      [
        record('q1#0', { options: { ...options, seed: 7, num_predict: 64 } }),
        record('q2#0', { options: { ...options, seed: 7 } }),
      ],
      CHECKS,
    );
    expect(text).toBe(
      'option seed is 7 in the logs, 1000 for this config; option num-predict is 64 in the logs, 32 for this config',
    );
  });

  it('gives both when the prompt and an option differ', () => {
    const text = describeDifferences(
      [unit('q1#0')],
      [record('q1#0', { prompt_sha256: 'c'.repeat(64), options: { ...options, think: true } })],
      CHECKS,
    );
    expect(text).toMatch(
      /^the prompt hash differs .*; option think is true in the logs, false for this config$/,
    );
  });
});

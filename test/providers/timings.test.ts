import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { ollamaTimings, openAiTimings } from '../../src/providers/timings.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { readRecord } from '../../src/sampleLog/index.js';
import { CHECKS } from '../../src/checks/builtIn.js';
import { simulate } from '../runner/simulated.js';

void CHECKS; // the record formats the log reader checks against

describe('server timings', () => {
  it("keeps Ollama's closing fields as whole nanoseconds and drops what is not a count", () => {
    expect(
      ollamaTimings(
        {
          eval_count: 40,
          eval_duration: 800_000_000,
          prompt_eval_count: 12,
          prompt_eval_duration: -5,
          load_duration: Number.NaN,
          total_duration: 2 ** 60,
        },
        3.25,
      ),
    ).toEqual({
      eval_count: 40,
      eval_duration: 800_000_000,
      prompt_eval_count: 12,
      first_token_duration: 3_250_000,
    });
    expect(ollamaTimings({ eval_count: '40' }, null)).toBeNull();
  });

  it("turns llama.cpp's timings (milliseconds) into nanoseconds, else keeps the usage counts", () => {
    expect(
      openAiTimings({
        usage: { prompt_tokens: 9, completion_tokens: 30 },
        timings: { prompt_n: 9, prompt_ms: 12.5, predicted_n: 30, predicted_ms: 600 },
      }),
    ).toEqual({
      eval_count: 30,
      eval_duration: 600_000_000,
      prompt_eval_count: 9,
      prompt_eval_duration: 12_500_000,
    });
    expect(openAiTimings({ usage: { prompt_tokens: 9, completion_tokens: 30 } })).toEqual({
      eval_count: 30,
      prompt_eval_count: 9,
    });
    expect(openAiTimings({ timings: { predicted_ms: -1 } })).toBeNull();
  });

  it('a negative duration in a log record is refused with the field named', () => {
    const record = {
      v: 1,
      kind: 'call',
      check: 'churn',
      model: 'm',
      digest: null,
      key: 'a',
      sample: 0,
      options: { temperature: 1, seed: 0, num_ctx: 4096, num_predict: 64, think: false },
      prompt_sha256: 'x',
      status: 'error',
      latency_ms: 5,
      attempts: 1,
      item: 'a',
      domain: 'd',
      mode: 'stochastic',
      answer: null,
      correct: null,
    };
    expect('record' in readRecord({ ...record, timings: { eval_duration: 100 } })).toBe(true);
    const refused = readRecord({ ...record, timings: { eval_duration: -100 } });
    expect('problem' in refused && refused.problem).toMatch(/eval_duration/);
  });
});

describe('a streamed Ollama reply', () => {
  let sim: RunningSimulator;
  beforeAll(async () => {
    sim = await simulate(`
models:
  - name: timed:1b
    latency-ms: 40
`);
  });
  afterAll(async () => {
    await sim.close();
  });

  it("carries the server's timings and the client's time to the first token", async () => {
    const provider = new OllamaProvider({ host: sim.url, timeoutMs: 5000, keepAlive: '5m' });
    const reply = await provider.chat({
      model: 'timed:1b',
      messages: [{ role: 'user', content: 'Say a few words about rivers, please.' }],
      options: { temperature: 0, seed: 1, numCtx: 4096, numPredict: 64, think: false },
    });
    const t = reply.timings;
    expect(t?.eval_count).toBe(reply.completionTokens);
    expect(t?.prompt_eval_count).toBe(reply.promptTokens);
    // The simulator spends 80% of its 40 ms decoding and streams the answer over that time.
    expect(t?.eval_duration).toBe(32_000_000);
    expect(t?.first_token_duration).toBeGreaterThan(0);
    expect(t?.first_token_duration).toBeLessThan(reply.latencyMs * 1e6);
  });
});

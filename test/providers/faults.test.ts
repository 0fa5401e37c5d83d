/**
 * Every fault the simulator can inject, through the real `ollama` and `openai` clients over
 * loopback: each must come out as the ProviderFailure kind the runner decides on, never as an
 * unhandled rejection or a partial response.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import type { ChatRequest, Provider, ProviderFailureKind } from '../../src/providers/types.js';
import { ProviderFailure } from '../../src/providers/types.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { simulate } from '../runner/simulated.js';

const SCENARIO = `
models:
  - name: fine:1b
    latency-ms: 5
  - name: slow:1b
    latency-ms: 1000
  - name: slow-headers:1b
    faults: [{kind: slow-headers, ms: 1000}]
  - name: busy:1b
    faults: [{kind: status, status: 503}]
  - name: broken:1b
    faults: [{kind: status, status: 500}]
  - name: picky:1b
    faults: [{kind: status, status: 400}]
  - name: vanished:1b
    faults: [{kind: status, status: 404}]
  - name: dropped:1b
    faults: [{kind: drop}]
  - name: dropped-mid:1b
    faults: [{kind: drop, mid-stream: true}]
  - name: mid-error:1b
    faults: [{kind: mid-stream-error}]
  - name: garbled:1b
    faults: [{kind: malformed-json}]
  - name: thinker:1b
    thinking: true
    faults: [{kind: thinking-only}]
`;

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await simulate(SCENARIO);
});
afterAll(async () => {
  await sim.close();
});

const TIMEOUT_MS = 250;
const providers: Record<string, () => Provider> = {
  ollama: () => new OllamaProvider({ host: sim.url, timeoutMs: TIMEOUT_MS, keepAlive: '5m' }),
  openai: () => new OpenAIProvider({ host: sim.url, apiKey: 'test', timeoutMs: TIMEOUT_MS }),
};

function request(model: string, think = false): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Answer in JSON.' },
      { role: 'user', content: 'Which letter?' },
    ],
    format: { type: 'object', properties: { answer: { type: 'string', enum: ['A', 'B'] } } },
    options: { temperature: 0, seed: 3, numCtx: 2048, numPredict: 64, think },
  };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderFailure> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderFailure))
    throw new Error(`expected a ProviderFailure, got ${String(error)}`);
  return error;
}

// The OpenAI API does not stream here, so a fault after the first token is a 500 before any.
const cases: [string, string, { ollama: ProviderFailureKind; openai: ProviderFailureKind }][] = [
  ['slow generation', 'slow:1b', { ollama: 'timeout', openai: 'timeout' }],
  ['slow headers', 'slow-headers:1b', { ollama: 'timeout', openai: 'timeout' }],
  ['503 server busy', 'busy:1b', { ollama: 'busy', openai: 'busy' }],
  ['500 server error', 'broken:1b', { ollama: 'server-error', openai: 'server-error' }],
  ['400 bad request', 'picky:1b', { ollama: 'bad-request', openai: 'bad-request' }],
  ['404 model missing', 'vanished:1b', { ollama: 'model-missing', openai: 'model-missing' }],
  ['unknown model', 'nobody:1b', { ollama: 'model-missing', openai: 'model-missing' }],
  ['dropped connection', 'dropped:1b', { ollama: 'connection-reset', openai: 'connection-reset' }],
  [
    'dropped mid-stream',
    'dropped-mid:1b',
    { ollama: 'connection-reset', openai: 'connection-reset' },
  ],
  ['error line mid-stream', 'mid-error:1b', { ollama: 'connection-reset', openai: 'server-error' }],
  ['malformed JSON', 'garbled:1b', { ollama: 'server-error', openai: 'server-error' }],
];

describe.each(Object.keys(providers))('%s provider against every fault', (name) => {
  const make = providers[name] as () => Provider;

  it.each(cases)('%s', async (_, model, kinds) => {
    const failure = await failureOf(make().chat(request(model)));
    expect(failure.kind).toBe(kinds[name as 'ollama' | 'openai']);
  });

  it('answers a healthy model with content, token counts and latency', async () => {
    const reply = await make().chat(request('fine:1b'));
    expect(JSON.parse(reply.content)).toEqual({ answer: 'A' });
    expect(reply.doneReason).toBe('stop');
    expect(reply.promptTokens).toBeGreaterThan(0);
    expect(reply.latencyMs).toBeGreaterThanOrEqual(5);
  });

  it('returns empty content with done reason "length" as a response (thinking only)', async () => {
    const reply = await make().chat(request('thinker:1b', true));
    expect(reply.content).toBe('');
    expect(reply.doneReason).toBe('length');
  });

  it('says cancelled when the caller aborts, not timeout', async () => {
    const controller = new AbortController();
    const pending = make().chat(request('slow:1b'), controller.signal);
    controller.abort();
    expect((await failureOf(pending)).kind).toBe('cancelled');
  });

  it('takes a per-call timeout over its default', async () => {
    const failure = await failureOf(make().chat(request('fine:1b'), undefined, 1));
    expect(failure.kind).toBe('timeout');
  });
});

describe('an address where nothing listens', () => {
  it('is unreachable for both providers', async () => {
    const closed = await simulate(SCENARIO);
    const url = closed.url;
    await closed.close();
    const ollama = new OllamaProvider({ host: url, timeoutMs: 1000, keepAlive: '5m' });
    const openai = new OpenAIProvider({ host: url, apiKey: 'x', timeoutMs: 1000 });
    expect((await failureOf(ollama.version())).kind).toBe('unreachable');
    expect((await failureOf(openai.chat(request('fine:1b')))).kind).toBe('unreachable');
  });
});

import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { afterEach, describe, expect, it } from 'vitest';
import type { Behaviour } from '../../src/simulator/behaviour.js';
import { parseScenario } from '../../src/simulator/scenario.js';
import {
  type RunningSimulator,
  SIMULATOR_HEADER,
  startSimulator,
} from '../../src/simulator/server.js';
import { createRng, seedFromText } from '../../src/stats/prng.js';

/** Answers "coin" prompts with a seeded draw, like the check behaviours do. */
const coin: Behaviour = {
  name: 'coin',
  answer(chat, params) {
    if (chat.user !== 'coin') return null;
    const bias = (params as { heads: number }).heads;
    const draw = createRng(seedFromText(`${chat.model}|${chat.seed}`)).next();
    return JSON.stringify({ side: draw < bias ? 'heads' : 'tails' });
  },
};

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

async function start(yaml: string): Promise<RunningSimulator> {
  sim = await startSimulator({ scenario: parseScenario(yaml, 'test', [coin]), behaviours: [coin] });
  return sim;
}

const chat = (model: string, content: string, seed = 1) => ({
  model,
  messages: [{ role: 'user', content }],
  options: { seed, temperature: 0.7, num_ctx: 4096 },
  stream: false as const,
});

describe('the simulator over the real ollama client', () => {
  it('labels itself simulated and answers "/"', async () => {
    const { url } = await start('models: [{name: a}]');
    const root = await fetch(url);
    expect(await root.text()).toBe('Ollama is running');
    expect(root.headers.get(SIMULATOR_HEADER)).toMatch(/simulated/);
    const client = new Ollama({ host: url });
    expect((await client.version()).version).toMatch(/simulated/);
    expect((await client.show({ model: 'a' })).details.family).toBe('simulated');
  });

  it('answers the same request the same way, and follows the scripted behaviour', async () => {
    const { url } = await start('models: [{name: "c:1b", coin: {heads: 0.7}}]');
    const client = new Ollama({ host: url });
    const answers: string[] = [];
    for (let seed = 0; seed < 100; seed++) {
      const reply = await client.chat(chat('c:1b', 'coin', seed));
      answers.push((JSON.parse(reply.message.content) as { side: string }).side);
    }
    const again = await client.chat(chat('c:1b', 'coin', 17));
    expect(again.message.content).toBe(JSON.stringify({ side: answers[17] }));
    // 100 draws at p = 0.7: sd = sqrt(100·0.7·0.3) ≈ 4.6 heads; 70 ± 18 is about 4 sd.
    const heads = answers.filter((a) => a === 'heads').length;
    expect(heads).toBeGreaterThan(52);
    expect(heads).toBeLessThan(88);
  });

  it('streams NDJSON chunks that add up to the whole answer', async () => {
    const { url } = await start('models: [{name: a}]');
    const client = new Ollama({ host: url });
    const whole = await client.chat(chat('a', 'hello there'));
    const parts = await client.chat({ ...chat('a', 'hello there'), stream: true });
    let text = '';
    let chunks = 0;
    for await (const part of parts) {
      text += part.message.content;
      chunks++;
    }
    expect(chunks).toBeGreaterThan(2);
    expect(text).toBe(whole.message.content);
    const generated = await client.generate({ model: 'a', prompt: 'hello there', stream: false });
    expect(generated.response).toBe(whole.message.content);
  });

  it('queues requests beyond the parallel slots, and refuses beyond the queue with 503', async () => {
    const server = await start('parallel: 2\nmax-queue: 1\nmodels: [{name: a, latency-ms: 300}]');
    const client = new Ollama({ host: server.url });
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map((n) => client.chat(chat('a', `hello ${n}`))),
    );
    // Two generate, one waits, the last to arrive finds the queue full.
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
    const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ name: 'ResponseError', status_code: 503 });
    expect(server.stats().maxInFlight).toBe(2);
  });

  it('counts a model load on first use, on a switch and on a num_ctx change', async () => {
    const server = await start('models: [{name: a}, {name: b}]');
    const client = new Ollama({ host: server.url });
    await client.chat(chat('a', 'x'));
    await client.chat(chat('a', 'y'));
    await client.chat(chat('b', 'x'));
    await client.chat({ ...chat('b', 'x'), options: { num_ctx: 8192 } });
    expect(server.stats().loads).toBe(3);
    expect((await client.ps()).models.map((m) => m.name)).toEqual(['b:latest']);
  });

  it('uses the real error shapes', async () => {
    const { url } = await start('models: [{name: a}]');
    const missing = await fetch(`${url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify(chat('zz', 'x')),
    });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({ error: "model 'zz' not found" });
    const bad = await fetch(`${url}/api/chat`, { method: 'POST', body: '{"model":' });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toHaveProperty('error');
  });

  it('fails once then lets the retry through with attempts: [1]', async () => {
    const { url } = await start(
      'models: [{name: a, faults: [{kind: status, status: 500, attempts: [1]}]}]',
    );
    const client = new Ollama({ host: url });
    await expect(client.chat(chat('a', 'x'))).rejects.toMatchObject({ status_code: 500 });
    await expect(client.chat(chat('a', 'x'))).resolves.toHaveProperty('done', true);
    // Another request is a first attempt again.
    await expect(client.chat(chat('a', 'y'))).rejects.toMatchObject({ status_code: 500 });
  });
});

describe('the simulator over the real openai client', () => {
  it('serves /v1/models and /v1/chat/completions with json_schema', async () => {
    const { url } = await start('models: [{name: "c:1b", coin: {heads: 1}}]');
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'x', maxRetries: 0 });
    const models = await client.models.list();
    expect(models.data.map((m) => [m.id, m.owned_by])).toEqual([['c:1b', 'simulated']]);
    const completion = await client.chat.completions.create({
      model: 'c:1b',
      messages: [{ role: 'user', content: 'coin' }],
      seed: 4,
      max_tokens: 1,
      response_format: {
        type: 'json_schema',
        json_schema: { name: 'a', schema: { type: 'object' } },
      },
    });
    // heads: 1 always answers heads; max_tokens 1 (≈ 4 characters) cuts it short.
    expect(completion.choices[0]?.message.content).toBe('{"si');
    expect(completion.choices[0]?.finish_reason).toBe('length');
    const missing = await client.chat.completions
      .create({ model: 'zz', messages: [{ role: 'user', content: 'x' }] })
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
  });
});

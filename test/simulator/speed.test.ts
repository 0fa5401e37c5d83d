import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ollama } from 'ollama';
import { afterEach, describe, expect, it } from 'vitest';
import { kebabToCamel } from '../../src/config/keys.js';
import { openAiTimings } from '../../src/providers/timings.js';
import { loadScenario, parseScenario } from '../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { cli, writeSmallConfig } from '../support/smallRun.js';

let sims: RunningSimulator[] = [];
afterEach(async () => {
  await Promise.all(sims.map((s) => s.close()));
  sims = [];
});

async function start(yaml: string): Promise<RunningSimulator> {
  const sim = await startSimulator({ scenario: parseScenario(yaml, 'test', []), behaviours: [] });
  sims.push(sim);
  return sim;
}

interface Closing {
  message: { content: string };
  eval_count: number;
  eval_duration: number;
  prompt_eval_count: number;
  prompt_eval_duration: number;
  load_duration: number;
  total_duration: number;
  done_reason: string;
}

/** One non-streamed /api/chat reply as the server wrote it. */
async function chat(
  sim: RunningSimulator,
  model: string,
  user: string,
  options: Record<string, unknown> = {},
): Promise<Closing> {
  const response = await fetch(`${sim.url}/api/chat`, {
    method: 'POST',
    body: JSON.stringify({
      model,
      messages: [{ role: 'user', content: user }],
      options,
      stream: false,
    }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Closing;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: readonly number[]) => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
};

describe('the timing block', () => {
  it('reports durations at the modelled rates, and the load once per load', async () => {
    const sim = await start(
      'load-ms: 7\nmodels: [{name: a, timing: {decode-tps: 50, prompt-tps: 400, load-ms: 1200}}]',
    );
    const first = await chat(sim, 'a', 'How long is a piece of string, in tokens?');
    // The generic answer "Simulated answer from a." is 24 characters: 6 tokens.
    expect(first.eval_count).toBe(6);
    expect(first.eval_duration).toBe((6 / 50) * 1e9);
    expect(first.prompt_eval_duration).toBe(Math.round((first.prompt_eval_count / 400) * 1e9));
    expect(first.load_duration).toBe(1200 * 1e6);
    expect(first.total_duration).toBe(
      first.load_duration + first.prompt_eval_duration + first.eval_duration,
    );
    const second = await chat(sim, 'a', 'And again?');
    expect(second.load_duration).toBe(0);
    expect(second.total_duration).toBe(second.prompt_eval_duration + second.eval_duration);
  });

  it('takes the scenario load time when the block gives none, and does not wait without sleep', async () => {
    const sim = await start('load-ms: 0\nmodels: [{name: a, timing: {decode-tps: 0.01}}]');
    const started = performance.now();
    const reply = await chat(sim, 'a', 'hi');
    // 6 tokens at 0.01 tokens/s is 600 s, reported and not waited.
    expect(reply.eval_duration).toBe(600e9);
    expect(performance.now() - started).toBeLessThan(5000);
    expect(reply.load_duration).toBe(0);
  });

  it('waits the modelled time when sleep is true', async () => {
    const sim = await start('models: [{name: a, timing: {decode-tps: 40, sleep: true}}]');
    const started = performance.now();
    const reply = await chat(sim, 'a', 'hi');
    expect(reply.eval_duration).toBe(150e6);
    expect(performance.now() - started).toBeGreaterThanOrEqual(150);
  });

  it('streams its first token after the prompt time when sleep is true', async () => {
    // 3 prompt tokens at 20 tokens/s: 150 ms; 6 answer tokens at 100 tokens/s: 60 ms more.
    const sim = await start(
      'models: [{name: a, timing: {prompt-tps: 20, decode-tps: 100, sleep: true}}]',
    );
    const started = performance.now();
    const response = await fetch(`${sim.url}/api/chat`, {
      method: 'POST',
      body: JSON.stringify({ model: 'a', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    const firstAt = performance.now() - started;
    let text = new TextDecoder().decode(first.value);
    for (let part = await reader.read(); !part.done; part = await reader.read()) {
      text += new TextDecoder().decode(part.value);
    }
    const lastAt = performance.now() - started;
    const closing = JSON.parse(text.trim().split('\n').at(-1) ?? '{}') as Closing;
    expect(closing.prompt_eval_duration).toBe(150e6);
    expect(closing.eval_duration).toBe(60e6);
    // The first piece of answer comes once the prompt is read, the last once it is decoded.
    expect(firstAt).toBeGreaterThanOrEqual(140);
    expect(lastAt).toBeGreaterThanOrEqual(200);
  });

  it('puts the timings on the final chunk of a stream', async () => {
    const sim = await start('models: [{name: a, timing: {decode-tps: 50}}]');
    const client = new Ollama({ host: sim.url });
    const parts = await client.chat({
      model: 'a',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks = [];
    for await (const part of parts) chunks.push(part);
    const last = chunks.at(-1);
    expect(last?.done).toBe(true);
    expect(last?.eval_count).toBe(6);
    expect(last?.eval_duration).toBe((6 / 50) * 1e9);
    expect(chunks.slice(0, -1).every((c) => c.eval_duration === undefined)).toBe(true);
  });

  it('draws lognormal noise of the given sigma, the same draws for the same scenario', async () => {
    const yaml = 'seed: 5\nmodels: [{name: a, timing: {decode-tps: 50, sigma: 0.25}}]';
    const sim = await start(yaml);
    const logs: number[] = [];
    for (let i = 0; i < 600; i++) {
      const r = await chat(sim, 'a', `question ${i}`);
      logs.push(Math.log(r.eval_duration / ((r.eval_count / 50) * 1e9)));
    }
    // 600 draws: the SD's standard error is about 0.25/√1200 ≈ 0.007, the mean's 0.01.
    expect(sd(logs)).toBeGreaterThan(0.225);
    expect(sd(logs)).toBeLessThan(0.275);
    expect(Math.abs(mean(logs))).toBeLessThan(0.04);
    const again = await start(yaml);
    for (const i of [0, 17, 599]) {
      const r = await chat(again, 'a', `question ${i}`);
      expect(Math.log(r.eval_duration / ((r.eval_count / 50) * 1e9))).toBeCloseTo(logs[i] ?? 0, 12);
    }
  });

  it('slows every model down as the server drifts, counting all models’ requests', async () => {
    const speed = '{decode-tps: 50, drift: 0.3, drift-requests: 100}';
    const sim = await start(`models: [{name: a, timing: ${speed}}, {name: b, timing: ${speed}}]`);
    const factors: number[] = [];
    for (let i = 0; i < 160; i++) {
      const r = await chat(sim, i % 2 === 0 ? 'a' : 'b', `q${i}`);
      factors.push(r.eval_duration / ((r.eval_count / 50) * 1e9));
    }
    // Request i (of either model) is i/100 of the way: 1 + 0.3·min(1, i/100).
    expect(factors[0]).toBeCloseTo(1, 9);
    expect(factors[51]).toBeCloseTo(1.153, 9);
    expect(factors[100]).toBeCloseTo(1.3, 9);
    expect(factors[159]).toBeCloseTo(1.3, 9);
    // Timed one after the other (one model for the first 80 requests, the other for the next
    // 80), the second looks 1.2921 / 1.1185 ≈ 1.155 times slower though both are the same.
    const first = mean(factors.slice(0, 80));
    const second = mean(factors.slice(80));
    expect(second / first).toBeCloseTo(1.2921 / 1.1185, 3);
  });

  it('drifts over modelled server time with drift-seconds', async () => {
    // Each answer (6 tokens at 6 tokens/s) takes 1 s at first; the prompt takes next to none.
    const sim = await start(
      'models: [{name: a, timing: {decode-tps: 6, prompt-tps: 1e9, drift: 0.5, drift-seconds: 2}}]',
    );
    const factors: number[] = [];
    for (let i = 0; i < 4; i++) {
      const r = await chat(sim, 'a', `q${i}`);
      factors.push(r.eval_duration / 1e9);
    }
    expect(factors[0]).toBeCloseTo(1, 6);
    expect(factors[1]).toBeCloseTo(1.25, 6);
    expect(factors[2]).toBeCloseTo(1.5, 6);
    expect(factors[3]).toBeCloseTo(1.5, 6);
  });

  it('reports size and size_vram on /api/ps, all in GPU memory unless told', async () => {
    const sim = await start(
      'max-loaded: 3\nmodels: [{name: a, timing: {size: 1000, size-vram: 600}}, {name: b, timing: {}}, {name: c}]',
    );
    for (const m of ['a', 'b', 'c']) await chat(sim, m, 'hi');
    const ps = (await (await fetch(`${sim.url}/api/ps`)).json()) as {
      models: { name: string; size: number; size_vram: number; context_length: number }[];
    };
    const byName = Object.fromEntries(ps.models.map((m) => [m.name, m]));
    expect(byName['a:latest']).toMatchObject({ size: 1000, size_vram: 600, context_length: 8192 });
    expect(byName['b:latest']).toMatchObject({ size: 1_000_000, size_vram: 1_000_000 });
    expect(byName['c:latest']).toMatchObject({ size: 1_000_000, size_vram: 1_000_000 });
  });

  it('pads answers to length-factor times the tokens without changing what they say', async () => {
    const sim = await start(
      'models: [{name: a, timing: {}}, {name: b, timing: {length-factor: 2}}, {name: c, timing: {length-factor: 3}}]',
    );
    const schema = { type: 'object', properties: { answer: { enum: ['A', 'B'] } } };
    const answers = [];
    for (const m of ['a', 'b', 'c']) {
      const response = await fetch(`${sim.url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({
          model: m,
          messages: [{ role: 'user', content: 'pick one' }],
          format: schema,
          stream: false,
        }),
      });
      answers.push((await response.json()) as Closing);
    }
    const [a, b, c] = answers as [Closing, Closing, Closing];
    expect(JSON.parse(a.message.content)).toEqual({ answer: 'A' });
    expect(JSON.parse(b.message.content)).toEqual({ answer: 'A' });
    expect(b.message.content.trim()).toBe(a.message.content);
    expect(b.eval_count).toBe(2 * a.eval_count);
    expect(c.eval_count).toBe(3 * a.eval_count);
    // Within a token budget the padding stops at the budget and the answer is not cut.
    const budgeted = await chat(sim, 'c', 'hi', { num_predict: 10 });
    expect(budgeted.eval_count).toBe(10);
    expect(budgeted.done_reason).toBe('stop');
    expect(budgeted.message.content.trim()).toBe('Simulated answer from c.');
  });

  it('counts reasoning in the answer tokens of a timed thinking model, as Ollama does', async () => {
    const sim = await start(
      'models: [{name: a, thinking: true, timing: {}}, {name: b, thinking: true}]',
    );
    const ask = async (model: string) => {
      const response = await fetch(`${sim.url}/api/chat`, {
        method: 'POST',
        body: JSON.stringify({
          model,
          messages: [{ role: 'user', content: 'hi' }],
          think: true,
          stream: false,
        }),
      });
      return (await response.json()) as Closing & { message: { thinking: string } };
    };
    const timed = await ask('a');
    // "Simulated reasoning about: hi" is 29 characters (8 tokens), the answer 6 tokens.
    expect(timed.message.thinking).toBe('Simulated reasoning about: hi');
    expect(timed.eval_count).toBe(8 + 6);
    expect((await ask('b')).eval_count).toBe(6);
  });

  it('gives /v1 replies usage and llama.cpp timings, which the provider reads back', async () => {
    const sim = await start('models: [{name: a, timing: {decode-tps: 50, prompt-tps: 400}}]');
    const response = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'a', messages: [{ role: 'user', content: 'hello there' }] }),
    });
    const reply = (await response.json()) as {
      usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
      timings: Record<string, number>;
    };
    expect(reply.usage).toEqual({ prompt_tokens: 3, completion_tokens: 6, total_tokens: 9 });
    expect(reply.timings).toMatchObject({
      prompt_n: 3,
      prompt_ms: 7.5,
      predicted_n: 6,
      predicted_ms: 120,
      predicted_per_second: 50,
      prompt_per_second: 400,
    });
    expect(openAiTimings(reply)).toEqual({
      eval_count: 6,
      eval_duration: 120e6,
      prompt_eval_count: 3,
      prompt_eval_duration: 7.5e6,
    });
  });

  it('without a timing block replies as before: latency-ms split 20/80, no /v1 timings', async () => {
    const sim = await start('load-ms: 3\nmodels: [{name: a, latency-ms: 10}]');
    const reply = await chat(sim, 'a', 'hi');
    expect(reply).toMatchObject({
      load_duration: 3e6,
      prompt_eval_duration: 2e6,
      eval_duration: 8e6,
      total_duration: 13e6,
      eval_count: 6,
    });
    expect(reply.message.content).toBe('Simulated answer from a.');
    const v1 = await fetch(`${sim.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'a', messages: [{ role: 'user', content: 'hi' }] }),
    });
    const body = (await v1.json()) as Record<string, unknown>;
    expect(body.usage).toBeDefined();
    expect('timings' in body).toBe(false);
  });

  it('refuses a timing block that cannot be, naming the line and field', () => {
    const bad = (block: string) => () =>
      parseScenario(`models:\n  - name: a\n    timing: ${block}\n`, 'test.yml', []);
    const detail = (block: string): string => {
      try {
        bad(block)();
      } catch (error) {
        return String((error as { details?: string[] }).details);
      }
      return 'accepted';
    };
    expect(detail('{size: 10, size-vram: 20}')).toBe(
      'line 3: models[0].timing.size-vram: size-vram cannot exceed size',
    );
    expect(detail('{drift: 0.3, drift-requests: 10, drift-seconds: 5}')).toBe(
      'line 3: models[0].timing.drift-seconds: give drift-requests or drift-seconds, not both',
    );
    expect(detail('{length-factor: 0.5}')).toMatch(/^line 3: models\[0\].timing\.length-factor: /);
    expect(detail('{decode-tps: 0}')).toMatch(/^line 3: models\[0\].timing\.decode-tps: /);
    expect(detail('{decode_tps: 5}')).toMatch(/^line 3: models\[0\].timing: .*decode_tps/);
  });
});

describe('a run against the speed-slow scenario', () => {
  it('logs server timings whose decode rates differ by 1.5 times', async () => {
    const sim = await startSimulator({ scenario: 'fixtures/simulator/speed-slow.yml' });
    sims.push(sim);
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-speed-'));
    const config = writeSmallConfig(dir, sim.url);
    const result = await cli(['run', '--config', config, '--limit', '12']);
    expect(result.stderr).not.toMatch(/error/i);
    const lines = readFileSync(path.join(dir, 'out', 'samples.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const records = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((r) => r.kind === 'call');
    const rate = (model: string): number => {
      const mine = records.filter((r) => r.model === model);
      expect(mine.length).toBeGreaterThanOrEqual(24);
      const timings = mine.map((r) => r.timings as { eval_count: number; eval_duration: number });
      return (
        timings.reduce((a, t) => a + t.eval_count, 0) /
        (timings.reduce((a, t) => a + t.eval_duration, 0) / 1e9)
      );
    };
    const base = rate('demo-base:1b');
    const cand = rate('demo-cand:1b');
    expect(base).toBeGreaterThan(55);
    expect(base).toBeLessThan(65);
    expect(base / cand).toBeGreaterThan(1.5 * 0.95);
    expect(base / cand).toBeLessThan(1.5 * 1.05);
  });
});

describe('docs/simulator.md', () => {
  it('shows a block that loads, and the defaults its table gives', () => {
    const page = readFileSync('docs/simulator.md', 'utf8');
    const example = /```yaml\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const [model] = parseScenario(example, 'docs/simulator.md', []).models;
    expect(model?.timing).toMatchObject({ decodeTps: 40, sizeVram: 780000000 });
    const [plain] = parseScenario('models: [{name: a, timing: {}}]', 'test', []).models;
    expect(plain?.timing).toEqual({
      decodeTps: 50,
      promptTps: 500,
      lengthFactor: 1,
      size: 1_000_000,
      sigma: 0,
      drift: 0,
      sleep: false,
    });
    // Each default the table gives as a plain value is the one an empty block gets.
    const table = [...page.matchAll(/^\| `([a-z-]+)` \| .* \| ([^|]+) \|$/gm)].map((m) => [
      m[1] ?? '',
      (m[2] ?? '').trim(),
    ]);
    const written = Object.fromEntries(
      table.filter(([, value]) => /^[\d.]+$|^false$/.test(value ?? '')),
    );
    expect(Object.keys(written)).toEqual([
      'decode-tps',
      'prompt-tps',
      'length-factor',
      'size',
      'sigma',
      'drift',
      'drift-requests',
      'sleep',
    ]);
    const applied = plain?.timing as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(written)) {
      if (key === 'drift-requests') continue;
      expect(String(applied[kebabToCamel(key)]), key).toBe(value);
    }
  });
});

describe('the speed scenarios', () => {
  const load = (name: string) => loadScenario(`fixtures/simulator/${name}.yml`).models;
  const pair = (name: string) => {
    const [base, cand] = load(name);
    if (!base?.timing || !cand?.timing) throw new Error(`${name}: a model without speed`);
    expect([base.name, cand.name]).toEqual(['demo-base:1b', 'demo-cand:1b']);
    // Same answers: the behaviour blocks are the same.
    expect(cand.behaviours).toEqual(base.behaviours);
    return { base: base.timing, cand: cand.timing };
  };

  it('pose the regression each is named for, and nothing else', () => {
    const slow = pair('speed-slow');
    expect(slow.base.decodeTps / slow.cand.decodeTps).toBe(1.5);
    expect({ ...slow.cand, decodeTps: 0 }).toEqual({ ...slow.base, decodeTps: 0 });
    const verbose = pair('speed-verbose');
    expect(verbose.cand).toEqual({ ...verbose.base, lengthFactor: 2 });
    const offload = pair('speed-offload');
    expect(offload.cand).toEqual({ ...offload.base, sizeVram: 0.6 * offload.base.size });
    const aa = pair('speed-aa');
    expect(aa.cand).toEqual(aa.base);
    expect(aa.base.sigma).toBe(0.25);
    const drift = pair('speed-drift');
    expect(drift.cand).toEqual(drift.base);
    expect(drift.base.drift).toBe(0.3);
  });

  it("the demo's candidate decodes 1.5 times slower, its other timings the baseline's; aa's twin times as the baseline", () => {
    const [base, cand] = load('demo');
    expect((base?.timing?.decodeTps ?? 0) / (cand?.timing?.decodeTps ?? 1)).toBe(1.5);
    expect({ ...cand?.timing, decodeTps: 0 }).toEqual({ ...base?.timing, decodeTps: 0 });
    const [aaBase, twin] = load('aa');
    expect(aaBase?.timing).toEqual(base?.timing);
    expect(twin?.timing).toEqual(base?.timing);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTag } from '../../src/providers/modelTag.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { ProviderFailure } from '../../src/providers/types.js';
import { digestFromName } from '../../src/simulator/scenario.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { simulate } from '../runner/simulated.js';

let sim: RunningSimulator;
let provider: OllamaProvider;
beforeAll(async () => {
  sim = await simulate(`
loaded: [resident:3b]
models:
  - name: qwen-sim:7b
    parameter-size: 7.6B
    quantization-level: Q4_K_M
    thinking: true
  - name: plain
`);
  provider = new OllamaProvider({ host: sim.url, timeoutMs: 2000, keepAlive: '5m' });
});
afterAll(async () => {
  await sim.close();
});

describe('OllamaProvider metadata', () => {
  it('takes the digest from /api/tags and the details from /api/show', async () => {
    expect(await provider.describe('qwen-sim:7b')).toEqual({
      model: 'qwen-sim:7b',
      digest: digestFromName('qwen-sim:7b'),
      quantization: 'Q4_K_M',
      parameterSize: '7.6B',
      family: 'simulated',
      simulated: true,
    });
  });

  it('matches an untagged name to its :latest tag', async () => {
    expect(withTag('plain')).toBe('plain:latest');
    expect((await provider.describe('plain')).digest).toBe(digestFromName('plain:latest'));
  });

  it('reports a model that is not on the server as model-missing', async () => {
    const error = await provider.describe('llama9:70b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFailure);
    expect((error as ProviderFailure).kind).toBe('model-missing');
  });

  it('reads the server version and the loaded models', async () => {
    expect(await provider.version()).toBe('0.12.6-simulated');
    expect(await provider.loadedModels()).toEqual(['resident:3b']);
  });

  it('describes running models (/api/ps) and unloads one with keep_alive 0', async () => {
    expect(await provider.running()).toEqual([
      {
        name: 'resident:3b',
        digest: '0'.repeat(64),
        contextLength: 4096,
        sizeVram: 1_000_000,
        size: 1_000_000,
      },
    ]);
    await provider.unloadModel('resident:3b');
    expect(await provider.loadedModels()).toEqual([]);
    expect(sim.stats().unloads).toEqual(['resident:3b']);
    // Unloading a model the server does not know is a model-missing failure.
    const error = await provider.unloadModel('ghost:1b').catch((e: unknown) => e);
    expect((error as ProviderFailure).kind).toBe('model-missing');
  });

  it('embeds texts through /api/embed; shared words give closer vectors', async () => {
    const [a, b, c] = await provider.embed('plain', [
      'the cat sat on the mat',
      'the cat sat on a rug',
      'quarterly revenue grew',
    ]);
    const dot = (x: number[] = [], y: number[] = []) =>
      x.reduce((s, v, i) => s + v * (y[i] ?? 0), 0);
    expect(dot(a, a)).toBeCloseTo(1, 10);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });

  it('sends think, the schema, the pinned options; thinking comes back apart', async () => {
    const reply = await provider.chat({
      model: 'qwen-sim:7b',
      messages: [{ role: 'user', content: 'hello' }],
      format: { type: 'object', properties: { n: { type: 'integer', minimum: 3 } } },
      options: { temperature: 0, seed: 1, numCtx: 4096, numPredict: 64, think: true },
    });
    expect(JSON.parse(reply.content)).toEqual({ n: 3 });
    expect(reply.thinking).toMatch(/^Simulated reasoning/);
    // A model without the thinking capability refuses think=true with a 400.
    const refused = await provider
      .chat({
        model: 'plain',
        messages: [{ role: 'user', content: 'hello' }],
        options: { temperature: 0, seed: 1, numCtx: 4096, numPredict: 64, think: true },
      })
      .catch((e: unknown) => e);
    expect((refused as ProviderFailure).kind).toBe('bad-request');
    expect((refused as ProviderFailure).message).toMatch(/does not support thinking/);
  });
});

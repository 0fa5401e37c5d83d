import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../src/errors.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { checkModel } from '../../src/runner/preflight.js';
import { ProviderFailure } from '../../src/providers/types.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { simulate } from '../runner/simulated.js';

let sim: RunningSimulator;
let provider: OpenAIProvider;
beforeAll(async () => {
  sim = await simulate('models:\n  - name: served:8b\n    thinking: true\n');
  provider = new OpenAIProvider({ host: sim.url, apiKey: 'x', timeoutMs: 2000 });
});
afterAll(async () => {
  await sim.close();
});

describe('OpenAIProvider', () => {
  it('reports digest, quantization and size as unknown rather than inventing them', async () => {
    expect(await provider.describe('served:8b')).toEqual({
      model: 'served:8b',
      digest: null,
      quantization: null,
      parameterSize: null,
      family: null,
      simulated: true,
    });
    expect(await provider.version()).toBeNull();
    expect(await provider.loadedModels()).toBeNull();
  });

  it('says model-missing when /v1/models does not list the model', async () => {
    const error = await provider.describe('other:8b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderFailure);
    expect((error as ProviderFailure).kind).toBe('model-missing');
    expect((error as ProviderFailure).served).toEqual(['served:8b']);
  });

  it('names the served model meant when a missing one is a typo away', async () => {
    const error = await checkModel(provider, 'sevred:8b').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).message).toBe(
      `model 'sevred:8b' is not available on the server at ${sim.url}; it has: served:8b`,
    );
    expect((error as InfrastructureError).hint).toBe(
      'did you mean served:8b? correct models.baseline / models.candidate',
    );
  });

  it('sends the schema as response_format and takes token counts from usage', async () => {
    const reply = await provider.chat({
      model: 'served:8b',
      messages: [{ role: 'user', content: 'pick' }],
      format: { type: 'object', properties: { pick: { type: 'string', enum: ['x', 'y'] } } },
      options: { temperature: 0, seed: 1, numCtx: 4096, numPredict: 64, think: false },
    });
    expect(JSON.parse(reply.content)).toEqual({ pick: 'x' });
    expect(reply.doneReason).toBe('stop');
    expect(reply.completionTokens).toBe(Math.ceil(reply.content.length / 4));
  });
});

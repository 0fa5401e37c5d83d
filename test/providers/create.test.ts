import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/builtIn.js';
import { configSchema } from '../../src/config/schema.js';
import { InputError } from '../../src/errors.js';
import { createProvider } from '../../src/providers/create.js';

const config = (provider: Record<string, unknown>) =>
  configSchema(CHECKS).parse({ models: { baseline: 'a:1b' }, provider });

describe('createProvider', () => {
  it('defaults to a local Ollama', () => {
    expect(createProvider(config({})).info).toEqual({
      provider: 'ollama',
      host: 'http://127.0.0.1:11434',
      version: null,
      simulated: false,
    });
  });

  it('builds an OpenAI-compatible provider with the key from the named variable', () => {
    const provider = createProvider(
      config({ kind: 'openai', host: 'http://127.0.0.1:8000/', apiKeyEnv: 'VLLM_API_KEY' }),
      { VLLM_API_KEY: 'secret' },
    );
    expect(provider.info).toMatchObject({ provider: 'openai', host: 'http://127.0.0.1:8000' });
  });

  it('names the variable when the key it points to is not set', () => {
    const make = () => createProvider(config({ kind: 'openai', apiKeyEnv: 'VLLM_API_KEY' }), {});
    expect(make).toThrow(InputError);
    expect(make).toThrow(/provider\.api-key-env: the environment variable VLLM_API_KEY is not set/);
  });
});

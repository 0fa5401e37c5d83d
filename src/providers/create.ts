import type { GateConfig } from '../config/schema.js';
import { InputError } from '../errors.js';
import { ollamaStoreRoot } from './embedded/ollamaStore.js';
import { EmbeddedProvider } from './embedded/provider.js';
import { DEFAULT_OLLAMA_HOST, OllamaProvider } from './ollama.js';
import { OpenAIProvider, PLACEHOLDER_API_KEY } from './openai.js';
import type { Provider } from './types.js';
import { registerSecret } from '../text/secrets.js';

/**
 * The provider the config asks for. The host defaults to a local Ollama (config loading has
 * already applied OLLAMA_HOST); OpenAI-compatible servers get their key from the environment
 * variable the config names, never from the file itself.
 */
/** `baseDir`: the config file's folder, which a relative `.gguf` path is read from. */
export function createProvider(
  config: GateConfig,
  env: NodeJS.ProcessEnv = process.env,
  baseDir: string = process.cwd(),
): Provider {
  const host = (config.provider.host ?? DEFAULT_OLLAMA_HOST).replace(/\/$/, '');
  const timeoutMs = config.runner.timeoutS * 1000;
  const limits = {
    maxReplyBytes: config.runner.maxReplyBytes,
    maxEmbeddingBytes: config.runner.maxEmbeddingBytes,
  };
  if (config.provider.kind === 'embedded') {
    // Constructed without loading llama.cpp: the first request does.
    return new EmbeddedProvider({
      timeoutMs,
      threads: config.provider.threads,
      gpu: config.provider.gpu,
      ollamaStore: ollamaStoreRoot(env),
      baseDir,
    });
  }
  if (config.provider.kind === 'ollama') {
    return new OllamaProvider({ host, timeoutMs, keepAlive: config.runner.keepAlive, limits });
  }
  const keyName = config.provider.apiKeyEnv;
  let apiKey = PLACEHOLDER_API_KEY;
  if (keyName !== undefined) {
    const value = env[keyName]?.trim();
    if (!value) {
      throw new InputError(
        `provider.api-key-env: the environment variable ${keyName} is not set or empty`,
        [`set ${keyName} to the server's API key, or remove provider.api-key-env`],
      );
    }
    // Masked everywhere from now on: a server or proxy may echo it in an error body.
    registerSecret(value);
    apiKey = value;
  }
  return new OpenAIProvider({ host, apiKey, timeoutMs, limits });
}

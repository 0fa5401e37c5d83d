/**
 * Entry point of the embedded provider for the provider factory. Importing this module does
 * not load llama.cpp; the first request does.
 */
import type { GateConfig } from '../../config/schema.js';
import { ollamaStoreRoot } from './ollamaStore.js';
import { EmbeddedProvider } from './provider.js';

export { EmbeddedProvider } from './provider.js';

export function createEmbeddedProvider(
  config: GateConfig,
  env: NodeJS.ProcessEnv = process.env,
  baseDir: string = process.cwd(),
): EmbeddedProvider {
  return new EmbeddedProvider({
    timeoutMs: config.runner.timeoutS * 1000,
    threads: config.provider.threads,
    gpu: config.provider.gpu,
    ollamaStore: ollamaStoreRoot(env),
    baseDir,
  });
}

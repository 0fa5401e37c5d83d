/**
 * A relative `.gguf` path in `models.*` is read from the config file's folder like every
 * other path of the config, and preflight hints speak of the provider actually in use.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import { InfrastructureError } from '../../src/errors.js';
import { createProvider } from '../../src/providers/create.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { checkModel, checkServer } from '../../src/runner/preflight.js';
import { writeTinyGguf } from '../support/tinyGguf.js';

async function infrastructureError(work: () => Promise<unknown>): Promise<InfrastructureError> {
  try {
    await work();
  } catch (error) {
    if (error instanceof InfrastructureError) return error;
    throw error;
  }
  throw new Error('expected an InfrastructureError');
}

describe('embedded model paths', () => {
  it('resolve a relative .gguf path from the config folder, not the working directory', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-gguf-'));
    mkdirSync(path.join(dir, 'ci', 'models'), { recursive: true });
    writeTinyGguf(path.join(dir, 'ci', 'models', 'tiny.gguf'), { seed: 3 });
    const file = path.join(dir, 'ci', 'model-gate.yml');
    writeFileSync(file, 'models:\n  baseline: models/tiny.gguf\nprovider:\n  kind: embedded\n');
    // The working directory is the repository root (not dir/ci), as in a CI job.
    const loaded = loadConfig({ checks: CHECKS, file, env: {} });
    expect(loaded.baseDir).toBe(path.join(dir, 'ci'));
    const provider = createProvider(loaded.config, {}, loaded.baseDir);
    const metadata = await checkModel(provider, 'models/tiny.gguf');
    expect(metadata.model).toBe('models/tiny.gguf');
    expect(metadata.digest).toMatch(/^[0-9a-f]{64}$/);
  });

  it('a missing model file gets a hint for the embedded provider', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-gguf-'));
    const loaded = loadConfig({
      checks: CHECKS,
      file: null,
      cwd: dir,
      env: {},
      overrides: [
        { path: ['models', 'baseline'], value: 'absent.gguf', source: 'test' },
        { path: ['provider', 'kind'], value: 'embedded', source: 'test' },
      ],
    });
    const provider = createProvider(loaded.config, {}, loaded.baseDir);
    const error = await infrastructureError(() => checkModel(provider, 'absent.gguf'));
    expect(error.message).toContain(path.join(dir, 'absent.gguf'));
    expect(error.hint).toContain('.gguf');
    expect(error.hint).not.toContain('load the model in the server');
  });
});

describe('preflight hints', () => {
  it('tell an OpenAI-compatible server apart from Ollama', async () => {
    const openai = new OpenAIProvider({ host: 'http://127.0.0.1:9', apiKey: 'x', timeoutMs: 2000 });
    const error = await infrastructureError(() => checkServer(openai));
    expect(error.hint).toContain('OpenAI-compatible');
    expect(error.hint).not.toContain('ollama serve');
  });
});

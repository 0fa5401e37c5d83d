/**
 * Ollama-store resolution on a store built here: manifest → model layer digest → blob. The
 * blob is a real (tiny) GGUF so the provider can also run it by tag.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ollamaStoreRoot,
  parseOllamaTag,
  resolveOllamaTag,
} from '../../../src/providers/embedded/ollamaStore.js';
import { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import { buildTinyGguf } from '../../support/tinyGguf.js';
import { letterRequest } from './requests.js';

let root: string;
let digest: string;

function writeManifest(path: string[], layers: unknown[]): void {
  const dir = join(root, 'manifests', ...path.slice(0, -1));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, path[path.length - 1] as string),
    JSON.stringify({ schemaVersion: 2, layers }),
  );
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'ollama-store-'));
  const blob = buildTinyGguf({ seed: 3 });
  digest = createHash('sha256').update(blob).digest('hex');
  mkdirSync(join(root, 'blobs'));
  writeFileSync(join(root, 'blobs', `sha256-${digest}`), blob);
  const layers = [
    {
      mediaType: 'application/vnd.ollama.image.template',
      digest: `sha256:${'1'.repeat(64)}`,
      size: 10,
    },
    {
      mediaType: 'application/vnd.ollama.image.model',
      digest: `sha256:${digest}`,
      size: blob.length,
    },
  ];
  writeManifest(['registry.ollama.ai', 'library', 'tiny', 'latest'], layers);
  writeManifest(['registry.ollama.ai', 'someone', 'tiny', 'q0'], layers);
  writeManifest(['registry.ollama.ai', 'library', 'broken', 'latest'], [layers[0]]);
  writeManifest(
    ['registry.ollama.ai', 'library', 'gone', 'latest'],
    [
      {
        mediaType: 'application/vnd.ollama.image.model',
        digest: `sha256:${'2'.repeat(64)}`,
        size: 1,
      },
    ],
  );
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('Ollama store', () => {
  it('reads the root from OLLAMA_MODELS, else ~/.ollama/models', () => {
    expect(ollamaStoreRoot({ OLLAMA_MODELS: '/data/models' })).toBe('/data/models');
    expect(ollamaStoreRoot({})).toMatch(/\.ollama\/models$/);
  });

  it('parses tags with their default registry, namespace and tag', () => {
    expect(parseOllamaTag('qwen2.5')).toEqual({
      registry: 'registry.ollama.ai',
      namespace: 'library',
      model: 'qwen2.5',
      tag: 'latest',
    });
    expect(parseOllamaTag('me/model:q4_K_M')).toMatchObject({
      namespace: 'me',
      model: 'model',
      tag: 'q4_K_M',
    });
    expect(parseOllamaTag('host.io/ns/m:1')).toMatchObject({
      registry: 'host.io',
      namespace: 'ns',
      model: 'm',
      tag: '1',
    });
  });

  it('resolves a tag to the blob of its model layer', () => {
    const found = resolveOllamaTag('tiny', root);
    expect(found.tag).toBe('tiny:latest');
    expect(found.digest).toBe(digest);
    expect(found.path).toBe(join(root, 'blobs', `sha256-${digest}`));
    expect(resolveOllamaTag('someone/tiny:q0', root).digest).toBe(digest);
  });

  it('names the tag meant when a missing one is a typo of a stored one', () => {
    expect(() => resolveOllamaTag('someone/tiyn:q0', root)).toThrow(
      /; did you mean someone\/tiny:q0\? \(the store has: someone\/tiny:q0, [a-z]+:latest, [a-z]+:latest, [a-z]+:latest\)$/,
    );
  });

  it('names the pull command when the tag, the layer or the blob is missing', () => {
    expect(() => resolveOllamaTag('qwen2.5:7b', root)).toThrow(
      /; run `ollama pull qwen2.5:7b` on this runner, or point OLLAMA_MODELS at the store \(the store has: (tiny|broken|gone|someone\/tiny):/,
    );
    expect(() => resolveOllamaTag('broken', root)).toThrow(
      /no application\/vnd.ollama.image.model layer/,
    );
    expect(() => resolveOllamaTag('gone', root)).toThrow(
      /blob .* is missing; run `ollama pull gone:latest`/,
    );
  });

  it('runs a tag from the store and reports the blob digest', async () => {
    const provider = new EmbeddedProvider({
      timeoutMs: 60_000,
      threads: 1,
      ollamaStore: root,
      baseDir: root,
    });
    try {
      const meta = await provider.describe('tiny:latest');
      expect(meta).toMatchObject({
        model: 'tiny:latest',
        digest,
        quantization: 'F32',
        family: 'llama',
      });
      const response = await provider.chat(letterRequest('tiny:latest', 0, 42));
      expect(JSON.parse(response.content)).toHaveProperty('answer');
    } finally {
      await provider.close();
    }
  });
});

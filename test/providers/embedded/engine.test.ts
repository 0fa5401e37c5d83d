import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatGateError, InputError } from '../../../src/errors.js';
import {
  loadEngine,
  NODE_LLAMA_CPP_VERSION,
  type NodeLlamaCpp,
} from '../../../src/providers/embedded/engine.js';

const manifest = JSON.parse(
  readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
);

/** What Node throws for `import('node-llama-cpp')` when the package is not installed. */
function moduleNotFound(specifier: string): Error {
  return Object.assign(
    new Error(`Cannot find package '${specifier}' imported from /x/model-gate/dist/cli.js`),
    { code: 'ERR_MODULE_NOT_FOUND' },
  );
}

describe('node-llama-cpp as an optional peer dependency', () => {
  it('is pinned at one version: peer, dev dependency and the install message agree', () => {
    expect(manifest.peerDependencies['node-llama-cpp']).toBe(NODE_LLAMA_CPP_VERSION);
    expect(manifest.peerDependenciesMeta['node-llama-cpp'].optional).toBe(true);
    expect(manifest.devDependencies['node-llama-cpp']).toBe(NODE_LLAMA_CPP_VERSION);
    expect(manifest.dependencies?.['node-llama-cpp']).toBeUndefined();
    expect(manifest.optionalDependencies?.['node-llama-cpp']).toBeUndefined();
  });

  it('a missing engine is bad input (exit 2) with the npm install line', async () => {
    const error = await loadEngine(() => Promise.reject(moduleNotFound('node-llama-cpp'))).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).exitCode).toBe(2);
    expect(formatGateError(error as InputError)).toContain(
      `npm i node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`,
    );
  });

  it('a missing file inside the engine is not mistaken for a missing engine', async () => {
    const inner = moduleNotFound('@node-llama-cpp/linux-x64');
    const error = await loadEngine(() => Promise.reject(inner)).catch((e: unknown) => e);
    expect(error).toBe(inner);
  });

  it('loads the installed engine', async () => {
    const lib: NodeLlamaCpp = await loadEngine();
    expect(typeof lib.getLlama).toBe('function');
  });
});

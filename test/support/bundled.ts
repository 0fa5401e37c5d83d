/**
 * A TypeScript entry point bundled once per test process into one ESM file that plain `node`
 * runs: a child process started from it begins in well under a second, where `node --import
 * tsx` transpiles the whole source tree again on every start (seconds on a 2-core runner).
 * The bundle is built from the current source, never from the committed dist/, and lives under
 * node_modules/.cache so that the package root and node_modules resolve as from src/.
 */
import { mkdirSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { buildSync } from 'esbuild';
import { pageScript } from '../../src/report/html/pageScript.js';

const folder = path.resolve('node_modules', '.cache', 'model-gate-tests');
const built = new Map<string, string>();

/** The path of `entry` (relative to the repository) bundled for node; built on first use. */
export function bundled(entry: string): string {
  const source = path.resolve(entry);
  const known = built.get(source);
  if (known) return known;
  mkdirSync(folder, { recursive: true });
  const name = `${process.pid}-${built.size}-${path.basename(entry, '.ts')}.mjs`;
  const outfile = path.join(folder, name);
  buildSync({
    entryPoints: [source],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'silent',
    // As the published bundle: the page script built in, the native engine loaded at run time.
    define: { MODEL_GATE_PAGE_SCRIPT: JSON.stringify(pageScript()) },
    external: ['node-llama-cpp', 'esbuild'],
    banner: {
      js: "import { createRequire as __mgCreateRequire } from 'node:module'; const require = __mgCreateRequire(import.meta.url);",
    },
  });
  built.set(source, outfile);
  if (built.size === 1) process.once('exit', removeAll);
  return outfile;
}

function removeAll(): void {
  for (const file of built.values()) {
    try {
      unlinkSync(file);
    } catch {
      // Already gone: nothing to tidy.
    }
  }
}

/** The CLI from the current source, as `node <file>` runs it. */
export function sourceCli(): string {
  return bundled('src/cli.ts');
}

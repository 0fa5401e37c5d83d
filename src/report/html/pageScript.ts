/**
 * report.html's script: the browser code of ./client/ with the checks' parts and the DOM
 * helpers it imports, bundled into one inline script.
 * The published bundle (scripts/bundle.mjs) carries it already built, in the constant
 * MODEL_GATE_PAGE_SCRIPT; run from source (tests, benchmarks) it is built here once per process
 * with esbuild, a development dependency, by the same function the bundle script calls.
 */
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

declare const MODEL_GATE_PAGE_SCRIPT: string | undefined;

type Esbuild = typeof import('esbuild');

let built: string | null = null;

/** The script as the page embeds it. */
export function pageScript(): string {
  if (typeof MODEL_GATE_PAGE_SCRIPT === 'string') return MODEL_GATE_PAGE_SCRIPT;
  built ??= buildPageScript();
  return built;
}

/** Bundles ./client/main.ts for the browser: one immediately run function, ASCII only. */
export function buildPageScript(): string {
  // Loaded by name at run time: the published bundle never reaches this line.
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  const entry = fileURLToPath(new URL('./client/main.ts', import.meta.url));
  const result = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    charset: 'ascii',
    legalComments: 'none',
    logLevel: 'silent',
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error('esbuild wrote no page script');
  return output.text.trimEnd();
}

/**
 * A TypeScript entry point bundled once per test process into one ESM file that plain `node`
 * runs: a child process started from it begins in well under a second, where `node --import
 * tsx` transpiles the whole source tree again on every start (seconds on a 2-core runner).
 * The bundle is built from the current source, never from the committed dist/, and lives under
 * node_modules/.cache so that the package root and node_modules resolve as from src/. Its name
 * carries a digest of src/ and the lock file: the test processes of one run (and later runs of
 * the same source) share one build, and a change to the source makes a new one.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
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
  const name = `${sourceDigest()}-${path.basename(entry, '.ts')}.mjs`;
  const outfile = path.join(folder, name);
  if (!existsSync(outfile)) build(source, outfile);
  built.set(source, outfile);
  return outfile;
}

/** Builds beside the final name and renames: a process that finds the file finds it whole. */
function build(source: string, outfile: string): void {
  const partial = `${outfile}.${process.pid}.part`;
  buildSync({
    entryPoints: [source],
    outfile: partial,
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
  renameSync(partial, outfile);
  // Builds of an earlier source are of no use any more.
  const prefix = path.basename(outfile).slice(0, DIGEST_LENGTH);
  for (const file of readdirSync(folder)) {
    if (!file.startsWith(prefix) && (file.endsWith('.mjs') || file.endsWith('.part')))
      rmSync(path.join(folder, file), { force: true });
  }
}

const DIGEST_LENGTH = 16;
let digest: string | null = null;

/** A digest of every file under src/ and of the lock file, by path and content. */
function sourceDigest(): string {
  if (digest !== null) return digest;
  const hash = createHash('sha256');
  const add = (file: string) => {
    hash.update(`${path.relative(process.cwd(), file)}\u0000`);
    hash.update(readFileSync(file));
  };
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else add(full);
    }
  };
  walk(path.resolve('src'));
  add(path.resolve('package-lock.json'));
  digest = hash.digest('hex').slice(0, DIGEST_LENGTH);
  return digest;
}

/** The CLI from the current source, as `node <file>` runs it. */
export function sourceCli(): string {
  return bundled('src/cli.ts');
}

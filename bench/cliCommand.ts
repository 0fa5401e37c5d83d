/** How the benches start the CLI: one place, so every bench measures the same program. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The node arguments that run the CLI: `BENCH_CLI` (a bundle built outside dist/, so a working
 * tree can be measured without touching dist/), else dist/cli.js, else the sources under tsx.
 */
export function cliCommand(): string[] {
  const dist = path.join(root, 'dist', 'cli.js');
  if (process.env.BENCH_CLI) return [process.env.BENCH_CLI];
  return existsSync(dist) ? [dist] : ['--import', 'tsx', path.join(root, 'src', 'cli.ts')];
}

/**
 * A small churn run through the CLI against the simulator: the demo models, the general item
 * set, two samples, a few items (`--limit`), no GPU telemetry. For tests that look at what a
 * run writes, prints and leaves alone.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { handlers } from '../../src/cli/handlers.js';
import { runCli } from '../../src/cli/program.js';

export const ITEMS = path.resolve('fixtures/items/general.yml');
export const CHURN_SCENARIO = path.resolve('fixtures/simulator/churn-demo.yml');

/** The config of a small run into `dir`/out; `extra` is merged over it (one level deep). */
export function writeSmallConfig(
  dir: string,
  host: string,
  extra: Record<string, Record<string, unknown>> = {},
): string {
  const base: Record<string, Record<string, unknown>> = {
    models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
    provider: { host },
    runner: { concurrency: 4, 'timeout-s': 10, 'gpu-sample-s': 0, warmup: false },
    output: { dir: path.join(dir, 'out') },
    churn: { items: ITEMS, samples: 2 },
  };
  for (const [key, value] of Object.entries(extra)) base[key] = { ...base[key], ...value };
  const file = path.join(dir, 'model-gate.yml');
  writeFileSync(file, stringify({ ...base, checks: ['churn'] }));
  return file;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function cli(argv: readonly string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, handlers, {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    colour: false,
  });
  return { code, stdout, stderr };
}

/** `model-gate run --limit 4` with the config of `writeSmallConfig`. */
export function smallRun(config: string, argv: readonly string[] = []): Promise<CliResult> {
  return cli(['run', '--config', config, '--limit', '4', ...argv]);
}

/**
 * The golden cases (test/fixtures/golden/<case>/): each folder holds a config, its inputs, the
 * sample log(s) a release wrote, and the report.json and exit code that release's `analyze`
 * made of them. Shared by the equivalence test and scripts/golden.ts, so both analyse a case
 * the same way.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from './smallRun.js';

export const GOLDEN_ROOT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'golden',
);

/** The case names: every folder under the golden root, sorted. */
export function goldenCases(): string[] {
  return readdirSync(GOLDEN_ROOT)
    .filter((name) => statSync(path.join(GOLDEN_ROOT, name)).isDirectory())
    .sort();
}

/** A case's sample logs: every .jsonl file of its folder, sorted (shard-1 before shard-2). */
export function goldenLogs(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.jsonl'))
    .sort()
    .map((name) => path.join(dir, name));
}

export interface GoldenAnalysis {
  exitCode: number;
  report: unknown;
}

/**
 * `model-gate analyze` of the case's logs with its config, into a scratch folder (removed
 * after): the exit code and the parsed report.json. Paths are given relative to the working
 * directory, as a user would type them.
 */
export async function analyseGoldenCase(dir: string): Promise<GoldenAnalysis> {
  const out = mkdtempSync(path.join(tmpdir(), 'model-gate-golden-'));
  const relative = (file: string): string => path.relative(process.cwd(), file);
  try {
    const result = await cli([
      'analyze',
      '--config',
      relative(path.join(dir, 'model-gate.yml')),
      '--log',
      ...goldenLogs(dir).map(relative),
      '--out',
      out,
    ]);
    let report: unknown;
    try {
      report = JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8'));
    } catch (error) {
      throw new Error(
        `${path.basename(dir)}: analyze exited ${result.code} without a readable report.json (${String(error)})\n${result.stderr}`,
      );
    }
    return { exitCode: result.code, report };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

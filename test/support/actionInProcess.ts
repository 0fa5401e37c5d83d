/**
 * The action's `run()` in this process, as the runner would start it: INPUT_* variables, the
 * runner's files and an event payload. `@actions/github` reads the event when it is first
 * imported, so `run` is imported only once the variables are set (import this helper, not
 * src/main.ts, in a test file that uses it). Returns what the step printed (stdout, where
 * workflow commands go), its summary, outputs and exit code.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';
import { parseOutputs } from './actionRun.js';

export interface InProcessRun {
  stdout: string;
  summary: string;
  outputs: Record<string, string>;
  exitCode: number | undefined;
  dir: string;
}

const event = {
  pull_request: { number: 7, head: { sha: '0123456789abcdef0123456789abcdef01234567' } },
  repository: { full_name: 'octo/models', name: 'models', owner: { login: 'octo' } },
};

/** @actions/core keeps the summary file of its first use: one for the process, emptied per run. */
const summary = path.join(mkdtempSync(path.join(tmpdir(), 'model-gate-summary-')), 'summary.md');

/** Runs the action with `inputs` (names as in action.yml) and extra variables. */
export async function runActionInProcess(
  inputs: Record<string, string>,
  env: Record<string, string> = {},
): Promise<InProcessRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-step-'));
  const output = path.join(dir, 'output.txt');
  const eventFile = path.join(dir, 'event.json');
  writeFileSync(summary, '');
  writeFileSync(output, '');
  writeFileSync(eventFile, JSON.stringify(event));
  const variables: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: output,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'octo/models',
    GITHUB_RUN_ID: '42',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'https://github.test',
    'INPUT_COMMENT-HEADER': 'default',
    'INPUT_ARTIFACT-NAME': 'model-gate',
    INPUT_COMMENT: 'true',
    ...Object.fromEntries(Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v])),
    ...env,
  };
  for (const [key, value] of Object.entries(variables)) vi.stubEnv(key, value);
  let stdout = '';
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation(((chunk: unknown) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stdout.write);
  const errSpy = vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => {
    stdout += String(chunk);
    return true;
  }) as typeof process.stderr.write);
  try {
    const { run } = await import('../../src/main.js');
    await run();
  } finally {
    spy.mockRestore();
    errSpy.mockRestore();
    vi.unstubAllEnvs();
  }
  const exitCode = process.exitCode as number | undefined;
  process.exitCode = undefined;
  return {
    stdout,
    summary: readFileSync(summary, 'utf8'),
    outputs: parseOutputs(readFileSync(output, 'utf8')),
    exitCode,
    dir,
  };
}

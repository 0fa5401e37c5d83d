/** Running the bundled action as the runner does, and reading back what it published. */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** What a test reads back from one run of the bundled action: exit code, log, job summary, outputs. */
export interface ActionRun {
  code: number | null;
  stdout: string;
  summary: string;
  outputs: Record<string, string>;
}

/** GITHUB_OUTPUT holds `name<<delimiter\nvalue\ndelimiter` blocks. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const head = /^([^<=]+)<<(.+)$/.exec(lines[i] ?? '');
    if (!head) continue;
    const [, name, delimiter] = head;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== delimiter; i++) value.push(lines[i] ?? '');
    outputs[name as string] = value.join('\n');
  }
  return outputs;
}

/** The files the runner hands the action, in a fresh folder of their own. */
export interface ActionFiles {
  dir: string;
  summaryFile: string;
  outputFile: string;
  eventFile: string;
}

export interface BundledActionOptions {
  /** The event payload (GITHUB_EVENT_PATH). */
  event: unknown;
  /** Variables besides PATH and the runner's files: GITHUB_* and INPUT_*. */
  env(files: ActionFiles): NodeJS.ProcessEnv;
  /** Called once the process started, with its output so far. */
  during?(child: ChildProcess, output: () => string): void;
  /** The workspace the step runs in (default: this repository, as `uses: ./` runs it). */
  cwd?: string;
}

/** Runs `node dist/index.js` the way the runner does, and reads back what it published. */
export async function runBundledAction(options: BundledActionOptions): Promise<ActionRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-action-'));
  const files: ActionFiles = {
    dir,
    summaryFile: path.join(dir, 'summary.md'),
    outputFile: path.join(dir, 'output.txt'),
    eventFile: path.join(dir, 'event.json'),
  };
  writeFileSync(files.summaryFile, '');
  writeFileSync(files.outputFile, '');
  writeFileSync(files.eventFile, JSON.stringify(options.event));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: files.summaryFile,
    GITHUB_OUTPUT: files.outputFile,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: files.eventFile,
    ...options.env(files),
  };
  const child = spawn(process.execPath, [path.resolve('dist/index.js')], {
    env,
    cwd: options.cwd ?? process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  options.during?.(child, () => stdout);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    code,
    stdout,
    summary: readFileSync(files.summaryFile, 'utf8'),
    outputs: parseOutputs(readFileSync(files.outputFile, 'utf8')),
  };
}

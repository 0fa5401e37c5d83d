/**
 * Runs a child script (bundled once per test process) and SIGKILLs it once it has reported `killAfter` finished calls
 * (lines `done N` on its stdout): a crash in the middle of a run, for the resume tests.
 */
import { spawn } from 'node:child_process';
import { type ProgressSink, silentProgress } from '../../src/runner/progress.js';
import { bundled } from '../support/bundled.js';

export function runAndKill(
  script: string,
  args: readonly string[],
  killAfter: number,
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundled(script), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let reported = 0;
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString().split('\n')) {
        const match = /^done (\d+)$/.exec(line);
        if (match) reported = Number(match[1]);
        if (reported >= killAfter && child.exitCode === null) child.kill('SIGKILL');
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(reported);
      else reject(new Error(`child ended by itself (code ${code}) before the kill: ${stderr}`));
    });
  });
}

/** The child's side: a progress sink that reports each finished call as a `done N` line. */
export function reportingProgress(): ProgressSink {
  let done = 0;
  return {
    ...silentProgress,
    advance() {
      process.stdout.write(`done ${++done}\n`);
    },
  };
}

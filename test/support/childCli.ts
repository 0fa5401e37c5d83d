/**
 * The CLI from source in a child process, in a working folder of the test's choosing, with a
 * deadline: for hostile files that would block or fill the memory of the process reading them
 * (a named pipe, /dev/zero), and for the rules that depend on the working folder. The child
 * reports its peak resident memory (`process.resourceUsage().maxRSS`) as it exits.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sourceCli } from './bundled.js';

export interface ChildResult {
  /** Exit code; null when the deadline killed it. */
  code: number | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory in MB, as the child said it on exit (null when it was killed). */
  peakMb: number | null;
  seconds: number;
}

let preload: string | null = null;

/** A module loaded before the CLI: it prints the peak memory when the process exits. */
function peakMemoryPreload(): string {
  if (preload) return preload;
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'model-gate-peak-')), 'peak.mjs');
  writeFileSync(
    file,
    "process.on('exit', () => { process.stderr.write('\\npeak-rss-kb: ' + process.resourceUsage().maxRSS + '\\n'); });\n",
  );
  preload = pathToFileURL(file).href;
  return preload;
}

export function childCli(
  argv: readonly string[],
  cwd: string,
  deadlineMs = 30_000,
): Promise<ChildResult> {
  const started = performance.now();
  const child = spawn(process.execPath, ['--import', peakMemoryPreload(), sourceCli(), ...argv], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', GITHUB_ACTIONS: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), deadlineMs);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      clearTimeout(timer);
      const peak = /peak-rss-kb: (\d+)/.exec(stderr);
      resolve({
        code,
        stdout,
        stderr,
        peakMb: peak ? Number(peak[1]) / 1024 : null,
        seconds: (performance.now() - started) / 1000,
      });
    });
  });
}

/**
 * The regression demo, run once per test run and read by every file that only inspects what
 * it wrote (the report, the summary, the log, the page). The first file to ask runs it; a file
 * in another worker that asks meanwhile waits for it, then reads the same folder. Files that
 * change the demo's output run their own.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { inject } from 'vitest';
import { runDemo } from '../../src/pipeline/demo.js';
import type { JobFiles } from '../../src/pipeline/types.js';
import type { Report } from '../../src/report/types.js';

export interface SharedDemo {
  /** The demo's output folder: write nothing into it but new subfolders. */
  dir: string;
  report: Report;
  files: JobFiles;
  exitCode: number;
  /** The lines the run's progress printed (a log's, not a terminal's). */
  progress: string[];
}

interface Written {
  files: JobFiles;
  exitCode: number;
  progress: string[];
}

const WAIT_MS = 180_000;

let mine: Promise<SharedDemo> | undefined;

export function sharedDemo(): Promise<SharedDemo> {
  mine ??= demoOnce();
  return mine;
}

async function demoOnce(): Promise<SharedDemo> {
  const folder = inject('sharedFolder');
  const dir = path.join(folder, 'demo');
  const done = path.join(folder, 'demo.json');
  const failed = path.join(folder, 'demo.failed');
  if (claim(path.join(folder, 'demo.lock'))) {
    try {
      const printed: string[] = [];
      const progress = {
        write: (text: string) => printed.push(text) > 0,
      } as unknown as NodeJS.WritableStream;
      const outcome = await runDemo({
        checks: CHECKS,
        scenario: 'demo',
        outDir: dir,
        progress,
      });
      const lines = printed.join('').split('\n').filter(Boolean);
      const written: Written = {
        files: outcome.files,
        exitCode: outcome.exitCode,
        progress: lines,
      };
      // Renamed into place: a reader never sees half a file.
      writeFileSync(`${done}.part`, JSON.stringify(written));
      renameSync(`${done}.part`, done);
    } catch (error) {
      writeFileSync(failed, String((error as Error).stack ?? error));
      throw error;
    }
  }
  const written = await waitFor(done, failed);
  const report = JSON.parse(readFileSync(written.files.report, 'utf8')) as Report;
  return { dir, report, ...written };
}

function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

async function waitFor(done: string, failed: string): Promise<Written> {
  const until = Date.now() + WAIT_MS;
  while (!existsSync(done)) {
    if (existsSync(failed)) {
      throw new Error(
        `the shared demo failed in another test file:\n${readFileSync(failed, 'utf8')}`,
      );
    }
    if (Date.now() > until) throw new Error(`the shared demo did not finish in ${WAIT_MS} ms`);
    await sleep(100);
  }
  return JSON.parse(readFileSync(done, 'utf8')) as Written;
}

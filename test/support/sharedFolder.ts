/**
 * One folder per test run, handed to every test file of the project: runs that several files
 * inspect without changing them (the demo) are made there once and read by the others.
 * Removed when the run ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedFolder: string;
  }
}

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), 'model-gate-shared-'));
  project.provide('sharedFolder', folder);
  return () => rmSync(folder, { recursive: true, force: true });
}

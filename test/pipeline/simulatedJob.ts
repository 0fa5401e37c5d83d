/** What the job tests share: a simulator for the file's tests, a scratch folder, a silent stream. */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll } from 'vitest';
import { type ConfigOverride, loadConfig } from '../../src/config/load.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { instantScenario } from '../support/instantScenario.js';

/** Progress and messages of a job under test go nowhere. */
export const quiet: NodeJS.WritableStream = new Writable({
  write: (_chunk, _encoding, done) => done(),
});

/** A config override as a test gives it: the value, then its path. */
export const at = (value: unknown, ...where: string[]): ConfigOverride => ({
  path: where,
  value,
  source: 'test',
});

export interface SimulatedJob {
  simulator: RunningSimulator;
  /** A fresh folder for this file's outputs. */
  root: string;
}

/**
 * Starts the simulator on `scenario` and makes a scratch folder (named from `prefix`) before
 * the file's tests; closes the simulator after them. The models answer without their scripted
 * latency: what these files test is what a job writes, not how long it waits.
 */
export function simulatedJob(scenario: string, prefix: string): SimulatedJob {
  const job = {} as SimulatedJob;
  beforeAll(async () => {
    job.simulator = await startSimulator({ port: 0, scenario: instantScenario(scenario) });
    job.root = mkdtempSync(path.join(tmpdir(), prefix));
  });
  afterAll(async () => {
    await job.simulator.close();
  });
  return job;
}

/**
 * The demo config (fixtures/demo/model-gate.yml) against the job's simulator, writing under
 * `root/dir`, with `overrides` on top.
 */
export function demoConfig(
  job: SimulatedJob,
  dir: string,
  overrides: readonly ConfigOverride[] = [],
) {
  return loadConfig({
    checks: CHECKS,
    file: 'fixtures/demo/model-gate.yml',
    env: {},
    overrides: [
      at(job.simulator.url, 'provider', 'host'),
      ...overrides,
      at(path.join(job.root, dir), 'output', 'dir'),
    ],
  });
}

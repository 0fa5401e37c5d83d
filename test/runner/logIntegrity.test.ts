/**
 * A run never writes into a file that is not its sample log, and never shares a log with a
 * second run: both stop before any request, leaving the file as it was.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterEach, expect, it } from 'vitest';
import { InfrastructureError, InputError } from '../../src/errors.js';
import { runPlan } from '../../src/runner/run.js';
import { lockPathOf, lockSampleLog } from '../../src/sampleLog/index.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { probeUnits } from './probe.js';
import { ollamaFor, simulate, tempLog } from './simulated.js';

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const SCENARIO = 'models:\n  - name: cand:1b\n    probe: {}\n';
const generated = (s: RunningSimulator) =>
  Object.values(s.stats().requests).reduce((a, b) => a + b, 0);

it('refuses --log pointed at a file that is not a sample log, before any request', async () => {
  sim = await simulate(SCENARIO);
  const file = tempLog().replace('samples.jsonl', 't.txt');
  writeFileSync(file, 'ghp_only_copy');
  const run = runPlan({
    provider: ollamaFor(sim),
    units: probeUnits('cand:1b', 2),
    models: ['cand:1b'],
    logPath: file,
    warmup: false,
  });
  await expect(run).rejects.toThrow(InputError);
  await expect(run).rejects.toThrow(`${file}:1: not a sample log`);
  expect(readFileSync(file, 'utf8')).toBe('ghp_only_copy');
  expect(existsSync(lockPathOf(file))).toBe(false);
  expect(generated(sim)).toBe(0);
});

it('stops a second run on the same log with exit 3, and runs once the first has ended', async () => {
  sim = await simulate(SCENARIO);
  const log = tempLog();
  const options = {
    provider: ollamaFor(sim),
    units: probeUnits('cand:1b', 2),
    models: ['cand:1b'],
    logPath: log,
    warmup: false,
  };
  const first = lockSampleLog(log);
  const second = runPlan(options);
  await expect(second).rejects.toThrow(InfrastructureError);
  await expect(second).rejects.toThrow(/another model-gate run \(process \d+\) is writing/);
  expect(generated(sim)).toBe(0);
  first.release();
  const done = await runPlan(options);
  expect(done.units.executed).toBe(2);
  expect(existsSync(lockPathOf(log))).toBe(false);
});

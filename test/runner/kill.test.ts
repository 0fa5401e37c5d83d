/**
 * A run killed with SIGKILL mid-way and run again must end with exactly one record per key
 * and the same outcomes as a run that was never interrupted.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { runPlan } from '../../src/runner/run.js';
import { readSampleLogs } from '../../src/sampleLog/index.js';
import type { RunningSimulator } from '../../src/simulator/server.js';
import { KILL_MODELS, KILL_SCENARIO, killPlan } from './killPlan.js';
import { runAndKill } from './runAndKill.js';
import { ollamaFor, requestsOf, simulate, tempLog } from './simulated.js';

let sim: RunningSimulator | null = null;
afterEach(async () => {
  await sim?.close();
  sim = null;
});

const childScript = fileURLToPath(new URL('./killChild.ts', import.meta.url));

function outcomes(records: readonly SampleRecord[]): string[] {
  return records
    .filter((r) => r.kind === 'call')
    .map((r) => `${r.model} ${r.key} ${r.status} ${'answer' in r ? r.answer : ''}`)
    .sort();
}

it('a run killed mid-way and resumed equals an uninterrupted run', async () => {
  sim = await simulate(KILL_SCENARIO);
  const killedLog = tempLog();
  const reported = await runAndKill(childScript, [sim.url, killedLog], 8);
  expect(reported).toBeGreaterThanOrEqual(8);

  const afterKill = await readSampleLogs([killedLog]);
  const kept = afterKill.records.filter((r) => r.kind === 'call').length;
  // A call is reported before its unit writes the record: at most one per concurrent unit
  // (2) may be answered but unwritten when the kill lands. The run was really cut short.
  expect(kept).toBeGreaterThanOrEqual(reported - 2);
  expect(kept).toBeLessThan(40);

  const resumed = await runPlan({
    provider: ollamaFor(sim),
    units: killPlan(),
    models: KILL_MODELS,
    logPath: killedLog,
    concurrency: 2,
    warmup: false,
  });
  expect(resumed.units.skipped).toBe(kept);

  const cleanLog = tempLog();
  const clean = await runPlan({
    provider: ollamaFor(sim),
    units: killPlan(),
    models: KILL_MODELS,
    logPath: cleanLog,
    concurrency: 2,
    warmup: false,
  });

  // Exactly one line per key in the raw file, not only after de-duplication.
  const rawCalls = readFileSync(killedLog, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; model: string; key: string })
    .filter((r) => r.kind === 'call')
    .map((r) => `${r.model} ${r.key}`);
  expect(rawCalls).toHaveLength(40);
  expect(new Set(rawCalls).size).toBe(40);

  const resumedRecords = (await readSampleLogs([killedLog])).records;
  expect(outcomes(resumedRecords)).toEqual(outcomes(clean.records));
  expect(requestsOf(resumed, KILL_MODELS).map(({ meanLatencyMs, ...rest }) => rest)).toEqual(
    requestsOf(clean, KILL_MODELS).map(({ meanLatencyMs, ...rest }) => rest),
  );
}, 30_000);

/**
 * kill -9 at random moments of a CLI run, each followed by a healthy rerun on the same output
 * folder: the rerun's report.json is the uninterrupted run's (timestamps and latencies aside).
 * Six kills here; `node --import tsx scripts/kill-rerun.ts 40` runs forty.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { killTrials, readReport, runCli, warmUp, writeKillConfig } from '../support/killRerun.js';

let sim: RunningSimulator;
beforeAll(async () => {
  sim = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
});
afterAll(async () => {
  await sim.close();
});

it('a run killed at any moment and run again writes the report of an uninterrupted run', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-kill-rerun-'));
  const config = writeKillConfig(dir);
  await warmUp(config, sim.url);
  const clean = await runCli(config, sim.url, path.join(dir, 'clean'));
  // Two maze seeds: the demo candidate's known-wall rise warns, and its calibration loss
  // cannot fail on two games (the dragon tests need 7 paired seeds): a pass, exit 0.
  expect(clean.code).toBe(0);
  const results = await killTrials({
    config,
    host: sim.url,
    expected: readReport(path.join(dir, 'clean')),
    expectedCode: clean.code,
    trials: 6,
    spanMs: clean.activeMs,
    seed: 12,
    parallel: 2,
  });
  // The kills really cut runs short, after the first records were written.
  expect(results.filter((r) => r.killed && r.linesAtKill > 0).length).toBeGreaterThanOrEqual(4);
  expect(results.filter((r) => !r.equal).map((r) => r.stderr)).toEqual([]);
}, 600_000);

/**
 * Adaptive sampling, killed mid-stage with SIGKILL and run again: the rerun continues from the
 * log (each item's path replayed from the records already there), asks no sample the log
 * holds, and ends with the log and the report of a run that was never interrupted.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, stringify } from 'yaml';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SampledChurnSection } from '../../src/checks/churn/section.js';
import { loadConfig } from '../../src/config/load.js';
import { analyseLogs } from '../../src/pipeline/analyse.js';
import { modelOrder } from '../../src/pipeline/checks.js';
import { prepareJob } from '../../src/pipeline/prepare.js';
import { runPlan } from '../../src/runner/run.js';
import { readSampleLogs, type SampleRecord } from '../../src/sampleLog/index.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { runAndKill } from './runAndKill.js';

const childScript = fileURLToPath(new URL('./killAdaptiveChild.ts', import.meta.url));
let sim: RunningSimulator;
let root: string;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-kill-adaptive-'));
  // Twelve items, two of them moved by the candidate, so that items stop at every stage.
  const items = (parse(readFileSync('fixtures/items/general.yml', 'utf8')) as unknown[]).slice(
    0,
    12,
  );
  writeFileSync(path.join(root, 'items.yml'), stringify(items));
  const ids = (items as { id: string }[]).map((item) => item.id);
  const churn = `items: ${path.join(root, 'items.yml')}, accuracy: 0.6, spread: 1.5, difficulty-seed: 5`;
  writeFileSync(
    path.join(root, 'scenario.yml'),
    `seed: 3
parallel: 2
models:
  - name: base:1b
    latency-ms: 8
    churn: { ${churn} }
  - name: cand:1b
    latency-ms: 8
    churn: { ${churn}, item-shifts: { ${ids[1]}: -5, ${ids[6]}: 5 } }
`,
  );
  sim = await startSimulator({ port: 0, scenario: path.join(root, 'scenario.yml') });
});
afterAll(async () => {
  await sim.close();
});

function writeConfig(name: string): string {
  const file = path.join(root, `${name}.yml`);
  writeFileSync(
    file,
    `models: { baseline: base:1b, candidate: cand:1b }
checks: [churn]
output: { dir: ${path.join(root, name)} }
churn:
  items: ${path.join(root, 'items.yml')}
  sampling: adaptive
  samples-first: 5
  samples-step: 5
  samples-max: 20
  settled-share: 0.05
  futility-p: 0.3
  futility-from: 10
`,
  );
  return file;
}

function load(file: string) {
  return loadConfig({
    checks: CHECKS,
    file,
    env: {},
    overrides: [{ path: ['provider', 'host'], value: sim.url, source: 'test' }],
  });
}

async function runToEnd(file: string) {
  const loaded = load(file);
  const { ctx, units, growth, provider } = await prepareJob(loaded);
  const logPath = path.join(loaded.config.output.dir, 'samples.jsonl');
  const result = await runPlan({
    provider,
    units,
    growth,
    models: modelOrder(ctx),
    logPath,
    concurrency: 2,
    warmup: false,
  });
  const report = (await analyseLogs({ loaded, logs: [logPath] })).report;
  return { result, report, logPath };
}

const lines = (log: string) =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { kind: string; model: string; key: string })
    .filter((r) => r.kind === 'call')
    .map((r) => `${r.model} ${r.key}`);

const outcomes = (records: readonly SampleRecord[]) =>
  records
    .filter((r) => r.kind === 'call')
    .map((r) => `${r.model} ${r.key} ${r.status} ${'answer' in r ? r.answer : ''}`)
    .sort();

it('a run killed mid-stage resumes from the log and ends as an uninterrupted run', async () => {
  const clean = await runToEnd(writeConfig('clean'));
  const total = lines(clean.logPath).length;
  // 12 items × 2 models × (5 first-stage samples + 1 greedy) are planned up front; the rest
  // came from later stages.
  expect(total).toBeGreaterThan(12 * 2 * 6);

  const killedConfig = writeConfig('killed');
  // Past both models' first stage (144 calls): the candidate runs the second stage of the
  // items still open, the baseline has not caught up yet.
  const reported = await runAndKill(childScript, [sim.url, killedConfig], 160);
  expect(reported).toBeGreaterThanOrEqual(160);
  const killedLog = path.join(root, 'killed', 'samples.jsonl');
  const kept = lines(killedLog).length;
  expect(kept).toBeGreaterThanOrEqual(reported - 2);
  expect(kept).toBeLessThan(total);
  const beyondFirstStage = lines(killedLog).filter((l) => /#([5-9]|1\d)$/.test(l));
  expect(beyondFirstStage.length).toBeGreaterThan(0);

  // Read as it was left, the log of the killed run is not a result: the stages it decided and
  // did not finish are missing, so the verdict is inconclusive, not a pass.
  const partial = await analyseLogs({ loaded: load(killedConfig), logs: [killedLog] });
  expect(partial.report.verdict.status).toBe('inconclusive');

  const before = Object.values(sim.stats().requests).reduce((a, b) => a + b, 0);
  const resumed = await runToEnd(killedConfig);
  const asked = Object.values(sim.stats().requests).reduce((a, b) => a + b, 0) - before;
  // The rerun asks exactly what the log lacks: every sample once in the log, none twice.
  expect(resumed.result.units.skipped).toBe(kept);
  expect(asked).toBe(total - kept);
  const raw = lines(killedLog);
  expect(raw).toHaveLength(total);
  expect(new Set(raw).size).toBe(total);

  const resumedLog = await readSampleLogs([killedLog]);
  expect(outcomes(resumedLog.records)).toEqual(outcomes(clean.result.records));
  expect(resumed.report.verdict).toEqual(clean.report.verdict);
  const section = (r: typeof clean.report) => r.checks.churn as SampledChurnSection;
  expect(section(resumed.report).comparison?.items).toEqual(
    section(clean.report).comparison?.items,
  );
  expect(section(resumed.report).sampling).toEqual(section(clean.report).sampling);
  expect(section(clean.report).sampling?.stopped.length).toBeGreaterThan(1);
}, 60_000);

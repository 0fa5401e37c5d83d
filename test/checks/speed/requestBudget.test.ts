/**
 * What timing a run costs in requests: beside churn the speed check sends none of its own, but
 * the runner alternates the models in blocks and warms each model up before each block. Counted
 * at the simulator, warm-ups included, a run with `checks: [churn, speed]` sends at most 5% more
 * chat requests than the same run with `checks: [churn]`, at a smoke run's size (fewer blocks,
 * said in the report) as at the default one (four blocks).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { ExitCode } from '../../../src/errors.js';
import type { Report } from '../../../src/report/types.js';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/server.js';
import { cli } from '../../support/smallRun.js';

const root = mkdtempSync(path.join(tmpdir(), 'model-gate-speed-budget-'));
let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, scenario: 'fixtures/simulator/speed-aa.yml' });
});
afterAll(() => sim.close());

interface Counted {
  requests: number;
  /** Series that ran: a change of model in the order the requests came. */
  series: number;
  report: Report;
}

/** A run on the built-in items with the runner's defaults (warm-ups on), counted at the server. */
async function counted(name: string, checks: string[], argv: string[]): Promise<Counted> {
  const out = path.join(root, name);
  const file = path.join(root, `${name}.yml`);
  writeFileSync(
    file,
    stringify({
      models: { baseline: 'demo-base:1b', candidate: 'demo-cand:1b' },
      provider: { host: sim.url },
      runner: { concurrency: 4, 'timeout-s': 10, 'gpu-sample-s': 0 },
      output: { dir: out },
      checks,
    }),
  );
  const total = () => Object.values(sim.stats().requests).reduce((a, b) => a + b, 0);
  const before = total();
  const from = sim.stats().order.length;
  expect((await cli(['run', '--config', file, ...argv])).code).toBe(ExitCode.pass);
  const order = sim.stats().order.slice(from);
  return {
    requests: total() - before,
    series: order.filter((m, i) => i === 0 || order[i - 1] !== m).length,
    report: JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')) as Report,
  };
}

const blocksNote = (report: Report) =>
  report.run.warnings.filter((w) => w.includes('instead of 4 blocks'));

describe('requests the speed check adds beside churn', () => {
  it('a smoke run (--limit 4): fewer blocks, at most 5% more requests, and the report says so', async () => {
    const churn = await counted('small-churn', ['churn'], ['--limit', '4']);
    const both = await counted('small-both', ['churn', 'speed'], ['--limit', '4']);
    // Four blocks would add six warm-ups: 8% of this run.
    expect(6 / churn.requests).toBeGreaterThan(0.05);
    expect(both.requests).toBeGreaterThanOrEqual(churn.requests);
    expect(both.requests / churn.requests).toBeLessThanOrEqual(1.05);
    expect(blocksNote(both.report)).toEqual([
      expect.stringMatching(/^each model's requests run in (one series|[23] blocks) instead of 4/),
    ]);
    expect(blocksNote(churn.report)).toEqual([]);
    expect(both.report.checks.speed?.comparison?.decode?.items).toBeGreaterThan(30);
  }, 120_000);

  it('at the default size: four blocks each, at most 5% more requests', async () => {
    const churn = await counted('full-churn', ['churn'], []);
    const both = await counted('full-both', ['churn', 'speed'], []);
    expect(both.requests / churn.requests).toBeLessThanOrEqual(1.05);
    expect(both.requests).toBeGreaterThan(churn.requests);
    // The baseline's four blocks and the candidate's alternate before the plan's later stages.
    expect(both.series).toBeGreaterThanOrEqual(8);
    expect(blocksNote(both.report)).toEqual([]);
  }, 200_000);
});

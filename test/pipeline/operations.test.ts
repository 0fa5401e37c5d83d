/**
 * Runner hygiene and GPU telemetry through the whole job: a simulated server that already
 * holds another model, and a fake nvidia-smi (real H200 captures) first on the PATH.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { runJob } from '../../src/pipeline/run.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { instantScenario } from '../support/instantScenario.js';

const quiet = { write: () => true } as unknown as NodeJS.WritableStream;
const FAKE = path.resolve('test/fixtures/nvidia-smi/fake');
// Without its scripted latency: what is looked at is the runner's hygiene, not timing.
const SCENARIO = instantScenario('fixtures/simulator/shared-gpu.yml');
let root: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-ops-'));
});
afterEach(() => vi.unstubAllEnvs());

async function job(name: string, simulator: RunningSimulator, runner: Record<string, unknown>) {
  const dir = path.join(root, name);
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['provider', 'host'], value: simulator.url, source: 'test' },
      {
        path: ['models'],
        value: { baseline: 'night:1b', candidate: 'night-next:1b' },
        source: 'test',
      },
      { path: ['checks'], value: ['dragon'], source: 'test' },
      // A maze on which both scripted players' games end within a few dozen moves: what is
      // looked at is around the series (loaded models, GPU samples), not the games.
      { path: ['dragon', 'seeds'], value: [5], source: 'test' },
      { path: ['dragon', 'bootstrap'], value: 100, source: 'test' },
      { path: ['runner'], value: { concurrency: 2, gpuSampleS: 5, ...runner }, source: 'test' },
      { path: ['output', 'dir'], value: dir, source: 'test' },
    ],
  });
  return runJob({ loaded, progress: quiet });
}

describe('before each series', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    simulator = await startSimulator({ port: 0, scenario: SCENARIO });
  });
  afterAll(() => simulator.close());

  // Two short dragon series each; minutes only on a machine under heavy load.
  it('reports another loaded model and, with unload-others, unloads it; GPU sampled', {
    timeout: 240_000,
  }, async () => {
    vi.stubEnv('PATH', `${FAKE}${path.delimiter}${process.env.PATH ?? ''}`);
    vi.stubEnv('FAKE_NVIDIA_SMI_STATE', mkdtempSync(path.join(tmpdir(), 'fake-smi-')));
    const outcome = await job('unload', simulator, { unloadOthers: true });
    const ops = outcome.report.run.operations;
    expect(ops?.series.map((s) => [s.model, s.othersLoaded, s.unloaded])).toEqual([
      ['night:1b', ['other:7b'], ['other:7b']],
      // The baseline is ours, but it would share the GPU with the candidate's series.
      ['night-next:1b', ['night:1b'], ['night:1b']],
    ]);
    expect(simulator.stats().unloads).toEqual(['other:7b', 'night:1b']);
    // The context the server reports for the loaded model: the run's pinned num_ctx.
    expect(ops?.series.map((s) => s.contextLength)).toEqual([4096, 4096]);
    const info = outcome.report.verdict.reasons.filter((r) => r.rule === 'other-models-loaded');
    expect(info.map((r) => r.severity)).toEqual(['info']);
    expect(info[0]?.message).toContain('other:7b was loaded on the server and unloaded');

    expect(ops?.gpu.available).toBe(true);
    expect(ops?.gpu.series.map((s) => s.model)).toEqual(['night:1b', 'night-next:1b']);
    const gpuCsv = path.join(outcome.files.dir, 'gpu.csv');
    expect(outcome.files.extra).toEqual([gpuCsv]);
    expect(readFileSync(gpuCsv, 'utf8')).toContain('"night:1b",0,0,0,36,');
    const summary = readFileSync(outcome.files.summary, 'utf8');
    expect(summary).toContain('### Runner');
    expect(summary).toContain('`other:7b` (unloaded)');
    expect(summary).toContain('NVIDIA H200');
  });

  it('without unload-others: a warning, and no nvidia-smi is one provenance line', {
    timeout: 240_000,
  }, async () => {
    const fresh = await startSimulator({ port: 0, scenario: SCENARIO });
    try {
      vi.stubEnv('PATH', path.dirname(process.execPath));
      const outcome = await job('keep', fresh, { unloadOthers: false });
      expect(fresh.stats().unloads).toEqual([]);
      const warned = outcome.report.verdict.reasons.filter((r) => r.rule === 'other-models-loaded');
      // Once per series: it stayed loaded through both.
      expect(warned.map((r) => [r.severity, r.check, r.values?.model])).toEqual([
        ['warn', 'dragon', 'night:1b'],
        ['warn', 'dragon', 'night-next:1b'],
      ]);
      expect(outcome.report.verdict.status).not.toBe('pass');
      const ops = outcome.report.run.operations;
      expect(ops?.gpu).toMatchObject({ available: false, file: null, series: [] });
      expect(existsSync(path.join(outcome.files.dir, 'gpu.csv'))).toBe(false);
      expect(outcome.files.extra).toBeUndefined();
      const summary = readFileSync(outcome.files.summary, 'utf8');
      expect(summary.match(/no GPU telemetry: nvidia\\-smi is not on the PATH/g)).toHaveLength(1);
      expect(summary).not.toContain('GPU samples');
    } finally {
      await fresh.close();
    }
  });
});

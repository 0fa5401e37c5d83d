/**
 * The GPU sampler against a fake nvidia-smi that replays real captures of an H200 (driver
 * 580; test/fixtures/nvidia-smi/README.md): the CSV parsed from the captures, a second compute
 * process flagged, and a missing binary or a failing query reduced to one provenance line.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { parseComputeApps, parseDevices, parseSamples } from '../../src/gpu/nvidiaSmi.js';
import { type GpuSampler, startGpuSampler } from '../../src/gpu/sampler.js';
import { operationsFindings } from '../../src/operations/findings.js';
import type { RunOperations } from '../../src/operations/types.js';

const FIXTURES = path.resolve('test/fixtures/nvidia-smi');
const FAKE = path.join(FIXTURES, 'fake');

function fakeEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    PATH: `${FAKE}${path.delimiter}${process.env.PATH ?? ''}`,
    FAKE_NVIDIA_SMI_STATE: mkdtempSync(path.join(tmpdir(), 'fake-smi-')),
    ...extra,
  };
}

/** Runs a sampler through one series until it holds `samples` rows of gpu.csv. */
async function sampleSeries(env: NodeJS.ProcessEnv, samples = 3) {
  const csvPath = path.join(mkdtempSync(path.join(tmpdir(), 'gpu-')), 'gpu.csv');
  const sampler = await startGpuSampler({ intervalS: 0.05, csvPath, models: ['m:1b'], env });
  sampler.mark('m:1b');
  for (let waited = 0; sampler.samples() < samples && waited < 20_000; waited += 50)
    await sleep(50);
  sampler.mark(null);
  const telemetry = await sampler.stop();
  return { telemetry, csvPath, csv: existsSync(csvPath) ? readFileSync(csvPath, 'utf8') : null };
}

describe('nvidia-smi CSV', () => {
  it('parses the real noheader,nounits loop capture', () => {
    const samples = parseSamples(readFileSync(path.join(FIXTURES, 'loop-noheader.csv'), 'utf8'));
    expect(samples).toHaveLength(6);
    expect(samples[0]).toEqual({
      index: 0,
      memoryUsed: 0,
      utilization: 0,
      temperature: 36,
      power: 87.83,
    });
    expect(samples.map((s) => s.power)).toEqual([87.83, 80.95, 80.59, 80.47, 80.5, 80.48]);
  });

  it('reads [N/A] as unknown and refuses a line with the wrong field count', () => {
    expect(parseSamples('0, 1024, [N/A], 40, [Not Supported]\n')[0]).toEqual({
      index: 0,
      memoryUsed: 1024,
      utilization: null,
      temperature: 40,
      power: null,
    });
    expect(() => parseSamples('0, 1024, 5\n')).toThrow('expected 5 values');
  });

  it('keeps a process name with a comma whole', () => {
    expect(parseComputeApps('77, python3 train.py --a=1, --b=2, 512\n')).toEqual([
      { pid: 77, name: 'python3 train.py --a=1, --b=2', usedMemory: 512 },
    ]);
  });

  it('the fake answers the device query from the captured table, units stripped', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync(
      'nvidia-smi',
      ['--query-gpu=index,uuid,name,driver_version,memory.total', '--format=csv,noheader,nounits'],
      { env: fakeEnv(), encoding: 'utf8' },
    );
    expect(parseDevices(out)).toEqual([
      {
        index: 0,
        uuid: 'GPU-441e95f2-1090-a28e-4abe-1094275d966b',
        name: 'NVIDIA H200',
        driver: '580.159.04',
        memoryTotal: 143771,
      },
    ]);
  });
});

describe('GPU sampler', () => {
  it('samples during a series, writes gpu.csv and summarises the series', async () => {
    const { telemetry, csv } = await sampleSeries(fakeEnv());
    expect(telemetry.available).toBe(true);
    expect(telemetry.note).toContain('NVIDIA H200 (GPU 0, driver 580.159.04, 143771 MiB)');
    expect(telemetry.file).toBe('gpu.csv');
    const lines = csv?.trim().split('\n') ?? [];
    expect(lines[0]).toBe(
      'time,series,gpu,memory_used_mib,utilization_gpu_pct,temperature_c,power_w,compute_processes,foreign_processes',
    );
    // The replayed loop, in order: 87.83 W first, then 80.95 W, …
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z,"m:1b",0,0,0,36,87\.83,0,0$/);
    expect(lines[2]).toMatch(/,"m:1b",0,0,0,36,80\.95,0,0$/);
    const [series] = telemetry.series;
    expect(series?.model).toBe('m:1b');
    expect(series?.samples).toBeGreaterThanOrEqual(3);
    expect(series?.peakMemoryMiB).toBe(0);
    expect(series?.maxTemperatureC).toBe(36);
    expect(series?.meanUtilization).toBe(0);
    expect(series?.meanPowerW).toBeGreaterThan(80.4);
    expect(series?.meanPowerW).toBeLessThan(87.9);
    expect(series?.contendedSamples).toBe(0);
  });

  /** A sampler between series a:1b and b:1b, marked by `mark`; what each series was given. */
  async function twoSeries(mark: (sampler: GpuSampler) => Promise<void>) {
    const csvPath = path.join(mkdtempSync(path.join(tmpdir(), 'gpu-')), 'gpu.csv');
    const sampler = await startGpuSampler({
      intervalS: 600,
      csvPath,
      models: ['a:1b', 'b:1b'],
      env: fakeEnv(),
    });
    await mark(sampler);
    const telemetry = await sampler.stop();
    return telemetry.series.map((s) => [s.model, s.samples]);
  }

  const twoSamples = async (sampler: GpuSampler) => {
    for (let waited = 0; sampler.samples() < 2 && waited < 20_000; waited += 50) await sleep(50);
  };

  it('gives a series that starts while a sample is still running its own sample', async () => {
    const series = await twoSeries(async (sampler) => {
      // The second series starts before the first one's start sample (a process) has answered.
      sampler.mark('a:1b');
      sampler.mark('b:1b');
      await twoSamples(sampler);
      sampler.mark(null);
    });
    expect(series).toEqual([
      ['a:1b', 1],
      ['b:1b', 1],
    ]);
  });

  it('gives that series its sample even when it has ended before the sample is taken', async () => {
    const series = await twoSeries(async (sampler) => {
      // It starts and ends while the first one's start sample is still running: the sample
      // taken after that one is still its own.
      sampler.mark('a:1b');
      sampler.mark('b:1b');
      sampler.mark(null);
      await twoSamples(sampler);
    });
    expect(series).toEqual([
      ['a:1b', 1],
      ['b:1b', 1],
    ]);
  });

  it('flags another compute process on the GPU, not the model server', async () => {
    const apps = path.join(FIXTURES, 'compute-apps-contended.csv');
    const { telemetry, csv } = await sampleSeries(fakeEnv({ FAKE_NVIDIA_SMI_APPS: apps }));
    const [series] = telemetry.series;
    expect(series?.foreign).toEqual(['python3 (5151)']);
    expect(series?.contendedShare).toBe(1);
    // Two processes on the GPU, one of them foreign.
    expect(csv?.trim().split('\n')[1]).toMatch(/,2,1$/);
    const ops: RunOperations = { unloadOthers: false, concurrency: 1, series: [], gpu: telemetry };
    const perturbed = operationsFindings(ops, ['dragon', 'churn'], 0.2);
    expect(perturbed.map((f) => [f.check, f.rule, f.severity])).toEqual([
      ['dragon', 'gpu-contention', 'inconclusive'],
      ['churn', 'gpu-contention', 'inconclusive'],
    ]);
    expect(perturbed[0]?.message).toContain('python3 (5151)');
    // Under the threshold it is a warning.
    expect(operationsFindings(ops, ['dragon'], 1)[0]?.severity).toBe('warn');
  });

  it('without nvidia-smi on the PATH: one line, no file', async () => {
    const { telemetry, csv } = await sampleSeries({ ...process.env, PATH: '/nonexistent' }, 0);
    expect(telemetry).toMatchObject({ available: false, file: null, series: [], devices: [] });
    expect(telemetry.note).toBe('no GPU telemetry: nvidia-smi is not on the PATH');
    expect(csv).toBeNull();
  });

  it('without nvidia-smi: no kill timer is left behind to hold the process open', async () => {
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    const csvPath = path.join(mkdtempSync(path.join(tmpdir(), 'gpu-')), 'gpu.csv');
    const env = { ...process.env, PATH: '/nonexistent' };
    const sampler = await startGpuSampler({ intervalS: 5, csvPath, models: ['m:1b'], env });
    // A start that failed must not keep a timer: the CLI would wait for it before exiting.
    // (At most as many as before: a timer of the previous test may end meanwhile.)
    expect(timers()).toBeLessThanOrEqual(before);
    expect((await sampler.stop()).available).toBe(false);
  });

  it('a failing query (exit 2, as captured): one line, no file', async () => {
    const { telemetry, csv } = await sampleSeries(fakeEnv({ FAKE_NVIDIA_SMI_UNKNOWN: 'uuid' }), 0);
    expect(telemetry.available).toBe(false);
    expect(telemetry.note).toContain(
      'failed (exit 2: Field "uuid" is not a valid field to query.)',
    );
    expect(csv).toBeNull();
  });
});

/**
 * What the GPU did during each model's series, from the sampler's ticks. Pure: ticks in,
 * per-series summary out. A compute process on the GPU that is not the model server is
 * contention: it shares memory and compute with the measured model.
 */
import { mean as ssMean } from 'simple-statistics';
import { neutralise } from '../text/neutralise.js';
import { csvCell } from '../text/sinks.js';
import type { ComputeApp, GpuDevice, GpuSample } from './nvidiaSmi.js';

export interface GpuTick {
  /** ISO time of the sample. */
  at: string;
  /** Model whose series was running, null between series. */
  series: string | null;
  gpus: GpuSample[];
  /** Compute processes on the GPU; null when that query failed on this tick. */
  apps: ComputeApp[] | null;
}

export interface SeriesGpu {
  model: string;
  samples: number;
  /** MiB, the most any GPU held during the series. */
  peakMemoryMiB: number | null;
  meanUtilization: number | null;
  maxTemperatureC: number | null;
  meanPowerW: number | null;
  /** Samples with a compute process that is not the model server. */
  contendedSamples: number;
  contendedShare: number;
  /** Those processes, "program (pid)": the program's file name only (see programName). */
  foreign: string[];
}

export interface GpuTelemetry {
  available: boolean;
  /** One provenance line: the GPU sampled, or why there is no telemetry. */
  note: string;
  devices: GpuDevice[];
  intervalS: number;
  /** gpu.csv when samples were written, else null. */
  file: string | null;
  /** Sample queries that failed during the run. */
  failedSamples: number;
  series: SeriesGpu[];
}

/** The model server's own processes (Ollama's runner, llama.cpp servers) and this process. */
export function isServerProcess(app: ComputeApp, ownPids: readonly number[]): boolean {
  if (ownPids.includes(app.pid)) return true;
  const base = app.name.split(/[\\/]/).at(-1) ?? app.name;
  return /ollama|llama/i.test(base);
}

/**
 * Another tenant's process as the report names it: its program's file name, without the
 * folders (a home folder, a project name) or the arguments (a path, a token) that nvidia-smi
 * may show. The first word is taken as the program: a folder with a space in its name may
 * leave a piece of that folder's name, never the rest of the path.
 */
export function programName(name: string): string {
  const program = name.trim().split(/\s+/)[0] ?? '';
  return neutralise(program.split(/[\\/]/).at(-1) || '?', 64);
}

function mean(values: number[]): number | null {
  return values.length === 0 ? null : ssMean(values);
}

function max(values: number[]): number | null {
  return values.length === 0 ? null : Math.max(...values);
}

const present = (v: number | null): v is number => v !== null;

export function summariseSeries(
  ticks: readonly GpuTick[],
  models: readonly string[],
  ownPids: readonly number[],
): SeriesGpu[] {
  return models.flatMap((model) => {
    const own = ticks.filter((t) => t.series === model);
    if (own.length === 0) return [];
    const gpus = own.flatMap((t) => t.gpus);
    const foreign = new Set<string>();
    let contended = 0;
    for (const tick of own) {
      const others = (tick.apps ?? []).filter((a) => !isServerProcess(a, ownPids));
      if (others.length > 0) contended++;
      for (const a of others) foreign.add(`${programName(a.name)} (${a.pid})`);
    }
    return [
      {
        model,
        samples: own.length,
        peakMemoryMiB: max(gpus.map((g) => g.memoryUsed).filter(present)),
        meanUtilization: mean(gpus.map((g) => g.utilization).filter(present)),
        maxTemperatureC: max(gpus.map((g) => g.temperature).filter(present)),
        meanPowerW: mean(gpus.map((g) => g.power).filter(present)),
        contendedSamples: contended,
        contendedShare: contended / own.length,
        foreign: [...foreign].sort(),
      },
    ];
  });
}

/** One row per GPU per tick, the series it belongs to and the processes seen. */
export const GPU_CSV_HEADER =
  'time,series,gpu,memory_used_mib,utilization_gpu_pct,temperature_c,power_w,compute_processes,foreign_processes';

export function csvLines(tick: GpuTick, ownPids: readonly number[]): string[] {
  const cell = (v: number | null) => (v === null ? '' : String(v));
  const apps = tick.apps;
  const foreign = apps ? apps.filter((a) => !isServerProcess(a, ownPids)).length : null;
  return tick.gpus.map((g) =>
    [
      tick.at,
      csvCell(tick.series ?? ''),
      g.index,
      cell(g.memoryUsed),
      cell(g.utilization),
      cell(g.temperature),
      cell(g.power),
      cell(apps ? apps.length : null),
      cell(foreign),
    ].join(','),
  );
}

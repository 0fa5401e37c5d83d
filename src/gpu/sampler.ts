/**
 * Samples nvidia-smi every `intervalMs` while the run measures: one short child process per
 * query, never blocking the run (a tick still in flight makes the next one skip), killed when
 * the sampler stops. Without nvidia-smi, or when its first query fails, the sampler says so
 * in one line and does nothing else.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';
import {
  type ComputeApp,
  type GpuDevice,
  type GpuSample,
  parseComputeApps,
  parseDevices,
  parseSamples,
  QUERY_ARGS,
} from './nvidiaSmi.js';
import {
  csvLines,
  GPU_CSV_HEADER,
  type GpuTelemetry,
  type GpuTick,
  summariseSeries,
} from './telemetry.js';
import { errorMessage } from '../text/format.js';
import { openAtomicFile } from '../files/safeWrite.js';

/** File name of the samples in the output folder. */
export const GPU_CSV = 'gpu.csv';

export interface GpuSamplerOptions {
  /** Seconds between samples; 0 turns telemetry off. */
  intervalS: number;
  /** Where gpu.csv goes. */
  csvPath: string;
  /** Models of the run, in series order. */
  models: readonly string[];
  binary?: string;
  env?: NodeJS.ProcessEnv;
  /** Processes that are ours (the embedded engine runs in this process). */
  ownPids?: readonly number[];
}

export interface GpuSampler {
  /** The series now running (a model), or null between series. */
  mark(series: string | null): void;
  /** Samples taken so far (gpu.csv is in place only once the sampler stops). */
  samples(): number;
  stop(): Promise<GpuTelemetry>;
}

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Set when the binary could not be started at all. */
  spawnError: NodeJS.ErrnoException | null;
}

type Query = (args: readonly string[]) => Promise<Result>;

/**
 * Runs nvidia-smi once with a kill timeout; never rejects. Children still running are kept in
 * `children` so that stopping the sampler can kill them.
 */
function runQuery(
  binary: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  children: Set<ChildProcess>,
  args: readonly string[],
): Promise<Result> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let child: ChildProcess;
    try {
      child = spawn(binary, [...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      resolve({ code: null, stdout, stderr, spawnError: error as NodeJS.ErrnoException });
      return;
    }
    // Our own kill timer, not spawn's `timeout`: Node keeps that one running after a failed
    // start (no nvidia-smi), which held every run's exit back by the whole timeout.
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    children.add(child);
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    let spawnError: NodeJS.ErrnoException | null = null;
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    child.on('close', (code) => {
      clearTimeout(killer);
      children.delete(child);
      resolve({ code, stdout, stderr, spawnError });
    });
  });
}

function unavailableSampler(note: string, intervalS: number): GpuSampler {
  return {
    mark: () => undefined,
    samples: () => 0,
    stop: async () => ({
      available: false,
      note,
      devices: [],
      intervalS,
      file: null,
      failedSamples: 0,
      series: [],
    }),
  };
}

const NOT_ON_PATH = 'no GPU telemetry: nvidia-smi is not on the PATH';

/**
 * False when no folder of PATH holds an executable `binary`: then no child process is started
 * only to fail (starting one from a large process costs more than the look-up). Where the
 * look-up cannot be trusted (Windows' extensions, a path given, no PATH), the probe decides.
 */
function mayBeOnPath(binary: string, env: NodeJS.ProcessEnv): boolean {
  if (process.platform === 'win32' || binary.includes('/') || env.PATH === undefined) return true;
  for (const folder of env.PATH.split(path.delimiter)) {
    if (folder === '') continue;
    try {
      accessSync(path.join(folder, binary), constants.X_OK);
      return true;
    } catch {
      // Not in this folder.
    }
  }
  return false;
}

/** The GPUs nvidia-smi lists, or why there is no telemetry. */
async function probeDevices(query: Query): Promise<GpuDevice[] | string> {
  const probe = await query(QUERY_ARGS.devices);
  if (probe.spawnError) {
    return probe.spawnError.code === 'ENOENT'
      ? NOT_ON_PATH
      : `no GPU telemetry: nvidia-smi could not be started (${probe.spawnError.message})`;
  }
  if (probe.code !== 0) {
    const said = `${probe.stdout} ${probe.stderr}`.replace(/\s+/g, ' ').trim();
    return `no GPU telemetry: nvidia-smi ${QUERY_ARGS.devices[0]} failed (exit ${probe.code ?? 'killed'}${said ? `: ${said.slice(0, 160)}` : ''})`;
  }
  try {
    return parseDevices(probe.stdout);
  } catch (error) {
    return `no GPU telemetry: unreadable nvidia-smi output (${errorMessage(error)})`;
  }
}

/**
 * One sample of the GPUs and their processes: 'failed' when the GPU query failed, null when
 * stopping the sampler killed the queries (nothing to count).
 */
async function sampleGpus(
  query: Query,
  series: string | null,
  stopping: () => boolean,
): Promise<GpuTick | 'failed' | null> {
  const at = new Date().toISOString();
  const [gpu, apps] = await Promise.all([query(QUERY_ARGS.samples), query(QUERY_ARGS.apps)]);
  if (stopping() && (gpu.code === null || apps.code === null)) return null;
  let gpus: GpuSample[];
  try {
    if (gpu.code !== 0) throw new Error(`exit ${gpu.code}`);
    gpus = parseSamples(gpu.stdout);
  } catch {
    return 'failed';
  }
  let processes: ComputeApp[] | null = null;
  try {
    if (apps.code === 0) processes = parseComputeApps(apps.stdout);
  } catch {
    processes = null;
  }
  return { at, series, gpus, apps: processes };
}

export async function startGpuSampler(options: GpuSamplerOptions): Promise<GpuSampler> {
  const binary = options.binary ?? 'nvidia-smi';
  const ownPids = options.ownPids ?? [process.pid];
  const children = new Set<ChildProcess>();
  const timeoutMs = Math.max(2000, options.intervalS * 1000);
  const env = options.env ?? process.env;
  const query: Query = (args) => runQuery(binary, env, timeoutMs, children, args);

  if (options.intervalS <= 0) {
    return unavailableSampler('GPU telemetry off (runner.gpu-sample-s: 0)', options.intervalS);
  }
  const devices = mayBeOnPath(binary, env) ? await probeDevices(query) : NOT_ON_PATH;
  if (typeof devices === 'string') return unavailableSampler(devices, options.intervalS);

  // Written beside its place and renamed there when the run ends: never through a link.
  const csv = openAtomicFile(options.csvPath);
  csv.write(`${GPU_CSV_HEADER}\n`);
  const ticks: GpuTick[] = [];
  let series: string | null = null;
  let failed = 0;
  let stopping = false;
  let csvBroken = false;
  let inFlight: Promise<void> | null = null;

  const tick = async (label: string | null): Promise<void> => {
    const sample = await sampleGpus(query, label, () => stopping);
    if (sample === null) return; // killed by stop()
    if (sample === 'failed') {
      failed++;
      return;
    }
    ticks.push(sample);
    try {
      for (const line of csvLines(sample, ownPids)) csv.write(`${line}\n`);
    } catch {
      // A full disk costs the CSV, never the run: the samples are still summarised.
      csvBroken = true;
    }
  };
  // A series that starts while a sample runs gets the next one as soon as it ends (its own,
  // even if it has ended by then): skipped, a series shorter than one call would have none.
  let startSampleFor: string | null = null;
  const schedule = (label: string | null): void => {
    if (inFlight || stopping) return; // the previous sample is still running: skip this one
    inFlight = tick(label).finally(() => {
      inFlight = null;
      const due = startSampleFor;
      startSampleFor = null;
      if (due !== null) schedule(due);
    });
  };
  const timer = setInterval(() => schedule(series), options.intervalS * 1000).unref();

  return {
    mark(next) {
      series = next;
      // Every series gets a sample at its start, however short it is.
      if (next !== null && inFlight) startSampleFor = next;
      else if (next !== null) schedule(next);
    },
    samples: () => ticks.length,
    async stop() {
      clearInterval(timer);
      await lastSamples(() => inFlight);
      stopping = true;
      for (const child of children) child.kill('SIGKILL');
      if (inFlight) await inFlight;
      if (!csvBroken) {
        try {
          csv.commit();
        } catch {
          csvBroken = true;
        }
      }
      if (csvBroken) csv.abort();
      const telemetry = telemetryOf(options, devices, ticks, failed, ownPids);
      return csvBroken ? { ...telemetry, file: null } : telemetry;
    },
  };
}

/**
 * A sample in flight when the run ends still belongs to it, and so does the start sample of a
 * last series queued behind it: each gets a second to finish.
 */
async function lastSamples(inFlight: () => Promise<void> | null): Promise<void> {
  for (let round = 0; round < 2; round++) {
    const pending = inFlight();
    if (!pending) return;
    await Promise.race([pending, new Promise((r) => setTimeout(r, 1000).unref())]);
  }
}

function telemetryOf(
  options: GpuSamplerOptions,
  devices: readonly GpuDevice[],
  ticks: readonly GpuTick[],
  failed: number,
  ownPids: readonly number[],
): GpuTelemetry {
  const names = devices.map(
    (d) => `${d.name} (GPU ${d.index}, driver ${d.driver}, ${d.memoryTotal ?? '?'} MiB)`,
  );
  return {
    available: true,
    note: `GPU sampled every ${options.intervalS} s with nvidia-smi: ${names.join('; ')}; ${ticks.length} samples${failed > 0 ? `, ${failed} failed` : ''}`,
    devices: [...devices],
    intervalS: options.intervalS,
    file: path.basename(options.csvPath),
    failedSamples: failed,
    series: summariseSeries([...ticks], options.models, ownPids),
  };
}

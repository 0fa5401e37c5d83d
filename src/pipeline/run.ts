import { mkdir, rename } from 'node:fs/promises';
import { createReadStream, existsSync } from 'node:fs';
import { openAtomicFile, refuseLink } from '../files/safeWrite.js';
import { forStream } from '../text/sinks.js';
import { checkUserFile } from '../files/userFile.js';
import { refuseLinkedFolder } from '../files/workspace.js';
import path from 'node:path';
import { GPU_CSV, startGpuSampler } from '../gpu/sampler.js';
import type { GpuTelemetry } from '../gpu/telemetry.js';
import { readHistory } from '../history/file.js';
import type { RunOperations } from '../operations/types.js';
import type { Provider } from '../providers/types.js';
import { createProgress } from '../runner/progress.js';
import { type RunPlanResult, runPlan } from '../runner/run.js';
import { pruneLog, pruneNote } from '../sampleLog/index.js';
import { analyseLogs } from './analyse.js';
import { ensureWritableFolder } from './outputFolder.js';
import { refusePlantedLog } from './measuredBefore.js';
import { modelOrder } from './checks.js';
import { type PreparedJob, prepareJob } from './prepare.js';
import type { JobOutcome, RunJobOptions } from './types.js';

/** The sample log of a run: output.log, or <output.dir>/samples.jsonl. */
export function sampleLogPath(options: {
  loaded: Pick<RunJobOptions['loaded'], 'config'>;
}): string {
  const { config } = options.loaded;
  return path.resolve(config.output.log ?? path.join(config.output.dir, 'samples.jsonl'));
}

const CACHED_LOG = 'samples.jsonl';

/** Where notes and progress go. */
interface TextSink {
  write(text: string): unknown;
}

/**
 * config → plan → run → sample log → analyse → report. Definitions are loaded before any
 * request (bad input exits 2 without touching the server); every outcome is in the log as
 * soon as it is known, so an interrupted run resumes where it stopped.
 */
export async function runJob(
  options: RunJobOptions & { provider?: Provider },
): Promise<JobOutcome> {
  const { loaded } = options;
  const { config } = loaded;
  const limit = options.limit ?? null;
  const logPath = sampleLogPath(options);
  refuseLink(logPath, 'sample log');
  // A log committed in the repository is planted, not this run's: refused before any request.
  if (!options.fresh) {
    refusePlantedLog(logPath, 'sample log');
    if (options.cacheDir) {
      refuseLinkedFolder(options.cacheDir, 'cache folder');
      refusePlantedLog(path.resolve(options.cacheDir, CACHED_LOG), 'cached sample log');
    }
  }
  const prepared = await prepareJob(loaded, { provider: options.provider, limit });
  // A damaged history is bad input: said before any request, not after an hour of measuring.
  if (config.output.history && !config.models.candidate) {
    await readHistory(path.resolve(config.output.history), loaded.checks);
  }

  await ensureWritableFolder(path.resolve(config.output.dir));
  await ensureWritableFolder(path.dirname(logPath));
  if (options.cacheDir) refuseLinkedFolder(options.cacheDir, 'cache folder');
  const terminal = options.progress ?? process.stderr;
  // Notes quote paths and servers: a registered secret never reaches the terminal, and no
  // line of theirs is a workflow command to the runner.
  const stream: TextSink = { write: (text) => terminal.write(forStream(text)) };
  const interactive = options.interactive ?? Boolean((terminal as NodeJS.WriteStream).isTTY);
  // Said before an hour of measuring, not only in a collapsed block of the summary.
  for (const warning of prepared.warnings) stream.write(`model-gate: warning: ${warning}\n`);
  const models = modelOrder(prepared.ctx);
  const cached = await restoreLog(options, logPath, models, stream);
  const { result, operations, gpuCsv } = await measure(
    { ...options, interactive },
    prepared,
    logPath,
    stream,
  );

  // What this run repaired of an interrupted one is said here, not in the report.
  for (const note of result.recovered)
    stream.write(`note: ${note}
`);
  if (cached) await keepInCache(logPath, cached, options.keepHistory ? null : models, stream);
  const outcome = await analyseLogs({
    loaded,
    logs: [logPath],
    checks: prepared.checks,
    plan: prepared.units,
    cancelled: result.cancelled,
    limit,
    operations,
    // A slice, a smoke run (--limit) or an interrupted run is not a night of the history.
    appendHistory: result.shard === null && limit === null && !result.cancelled,
    shard: options.shard ?? null,
    startsOver: options.startsOver ?? false,
    measuredBefore: {
      units: result.units.skipped,
      planned: result.units.planned,
      log: logPath,
    },
  });
  if (gpuCsv) outcome.files.extra = [...(outcome.files.extra ?? []), gpuCsv];
  return { ...outcome, inputWarnings: prepared.warnings };
}

/**
 * `--fresh` sets the previous log aside; otherwise a fresh runner starts from the cached log
 * (every record whose model digest, prompt and options still match is reused instead of asked
 * again), pruned to this config's models unless `--keep-history`. Returns the cached log's
 * path when there is a cache to refresh.
 */
async function restoreLog(
  options: RunJobOptions,
  logPath: string,
  models: readonly string[],
  stream: TextSink,
): Promise<string | null> {
  const cached = options.cacheDir ? path.resolve(options.cacheDir, CACHED_LOG) : null;
  if (options.fresh) {
    const kept = await setAsideLog(logPath);
    if (kept) stream.write(`model-gate: --fresh: the previous sample log is kept as ${kept}\n`);
  } else if (cached && existsSync(cached) && !existsSync(logPath)) {
    if (options.keepHistory) await copyWhole(cached, logPath);
    else {
      const pruned = await pruneLog(cached, logPath, models);
      stream.write(`model-gate: cache: ${pruneNote(pruned, path.basename(cached))}\n`);
    }
  }
  return cached;
}

/**
 * The log becomes the cache for the next run: pruned to `models` (null: kept whole), written
 * beside the cached file and renamed over it, so a crash never leaves a half-written cache.
 */
async function keepInCache(
  logPath: string,
  cached: string,
  models: readonly string[] | null,
  stream: TextSink,
): Promise<void> {
  await mkdir(path.dirname(cached), { recursive: true });
  if (models === null) {
    await copyWhole(logPath, cached);
    return;
  }
  const pruned = await pruneLog(logPath, cached, models);
  if (pruned.dropped > 0) {
    stream.write(`model-gate: cache: ${pruneNote(pruned, path.basename(cached))}\n`);
  }
}

/** A copy made under another name and renamed into place: whole or not at all. */
async function copyWhole(source: string, target: string): Promise<void> {
  checkUserFile(source, source, 'sample log');
  const file = openAtomicFile(target);
  try {
    for await (const chunk of createReadStream(source)) file.write(chunk as Buffer);
  } catch (error) {
    file.abort();
    throw error;
  }
  file.commit();
}

/** The run itself, with GPU telemetry sampled while it lasts; the hygiene for the report. */
async function measure(
  options: RunJobOptions,
  prepared: PreparedJob,
  logPath: string,
  stream: TextSink,
): Promise<{ result: RunPlanResult; operations: RunOperations; gpuCsv: string | null }> {
  const { config } = options.loaded;
  const { ctx, units, growth, provider } = prepared;
  const interactive = options.interactive ?? false;
  const models = modelOrder(ctx);
  const gpuCsv = path.resolve(config.output.dir, GPU_CSV);
  // The embedded engine computes in this process; a server's GPU work is its own processes.
  const sampler = await startGpuSampler({
    intervalS: config.runner.gpuSampleS,
    csvPath: gpuCsv,
    models,
    ownPids: [process.pid],
  });
  let telemetry: GpuTelemetry | null = null;
  const stopSampler = async (): Promise<GpuTelemetry> => {
    telemetry ??= await sampler.stop();
    return telemetry;
  };
  const result = await runPlan({
    provider,
    units,
    growth,
    models,
    logPath,
    concurrency: config.runner.concurrency,
    timeoutMs: config.runner.timeoutS * 1000,
    retries: config.runner.retries,
    warmup: config.runner.warmup,
    numCtx: config.runner.numCtx,
    shard: options.shard ?? null,
    limit: options.limit ?? null,
    signal: options.signal,
    progress: createProgress({ stream, interactive }),
    unloadOthers: config.runner.unloadOthers,
    onSeries: (model) => sampler.mark(model),
    // The log is read again, streamed, to analyse it: the run keeps no record in memory.
    keepRecords: false,
    blocks: Math.max(1, ...prepared.checks.map(({ check }) => check.runner?.blocks ?? 1)),
    residency: prepared.checks.some(({ check }) => check.runner?.residency === true),
  }).finally(stopSampler);
  const gpu = await stopSampler();
  const operations: RunOperations = {
    unloadOthers: config.runner.unloadOthers,
    concurrency: config.runner.concurrency,
    series: result.series,
    gpu: isLocalServer(provider.info.host)
      ? gpu
      : {
          ...gpu,
          note: `${gpu.note} (this machine's GPU; the model server is at ${provider.info.host})`,
        },
  };
  return { result, operations, gpuCsv: gpu.file ? gpuCsv : null };
}

/**
 * `--fresh` keeps the previous log, renamed with the time it was set aside
 * (samples.jsonl → samples.2026-11-30T18-22-05.jsonl): nothing measured is ever deleted.
 * Returns the new name, or null when there was no log.
 */
export async function setAsideLog(logPath: string, now: Date = new Date()): Promise<string | null> {
  if (!existsSync(logPath)) return null;
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/:/g, '-');
  const { dir, name, ext } = path.parse(logPath);
  let target = path.join(dir, `${name}.${stamp}${ext}`);
  for (let n = 2; existsSync(target); n++) target = path.join(dir, `${name}.${stamp}-${n}${ext}`);
  await rename(logPath, target);
  return target;
}

function isLocalServer(host: string): boolean {
  try {
    const name = new URL(host).hostname;
    return ['127.0.0.1', 'localhost', '[::1]', '::1'].includes(name) || name.startsWith('127.');
  } catch {
    return true;
  }
}

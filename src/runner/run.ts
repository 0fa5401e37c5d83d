/**
 * runPlan: executes the work units of a plan against one provider and appends every outcome
 * to the sample log.
 *
 * Options (see RunPlanOptions):
 * - `provider`, `units` (from the checks' plans), `models` (baseline first, then candidate):
 *   all of one model's units run before the next model's (model-major: one load per model);
 * - `logPath`: the sample log, read first for resume and then appended to;
 * - `concurrency`: units in flight at once, at most the server's parallel slots; calls
 *   inside one unit are sequential (a maze game);
 * - `timeoutMs` per request, server queue time included (default: the provider's own limit,
 *   which createProvider takes from the config); `retries` extra
 *   attempts after a timeout, a dropped connection, a busy server or a refused connection;
 *   `retryDelayMs` (RETRY_DELAY_MS) before each retry;
 * - `warmup`: one uncounted call per model before its first unit, with `numCtx`
 *   (the run's pinned context length, so the model is not reloaded afterwards) and
 *   `warmupTimeoutMs` (the larger of 4 × timeout and 120 s: it includes loading the model);
 * - `shard` ({index, count}, 1-based): a deterministic slice of the units (see shard.ts);
 * - `signal`: aborting it stops scheduling; calls in flight end as cancelled and write
 *   nothing, the log stays intact and the result says `cancelled: true`;
 * - `progress`: where done/total, rate and time left go (see progress.ts).
 *
 * - `growth`: units the answers add to the plan as they arrive (adaptive sampling). With a
 *   shard, the slice holds whole groups (every unit of an item): only its own answers reach
 *   the growth, so it adds units of its own items only.
 *
 * Defaults are those of the config's `runner:` section (src/config/schema.ts). The parts:
 * resume planning (src/plan/resumePlan.ts: a unit whose `isComplete(prior)` holds is skipped), the call
 * policy (callPolicy.ts: timeout, retries, liveness) and the scheduler (scheduler.ts: series,
 * slots, a plan that grows).
 *
 * One run per log: a lock file beside it (src/sampleLog/lock.ts) stops a second run.
 *
 * Before any call: the server must answer (else InfrastructureError, exit 3) and every model
 * must exist on it (else InfrastructureError with the `ollama pull` hint). At the end of each
 * model's series, and as soon as a request answers "model missing", the model is described
 * again: another digest (re-pulled) or no model at all stops the run (exit 3) instead of
 * mixing two sets of weights or sending hundreds of requests that cannot succeed; models already
 * loaded are recorded, with a warning when one of them is not ours. A server that stops
 * answering mid-run also ends the run with an InfrastructureError, after the calls in flight
 * have finished and been logged: refused connections say so at once; a server that hangs is
 * found when a call has timed out and a status request (the model list) times out too.
 */

import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { runnerSchema } from '../config/schema.js';
// The registry hands each check's record format to the sample log this run reads and appends to.
import '../checks/builtIn.js';
import { InfrastructureError } from '../errors.js';
import {
  boundToSignal,
  type ModelMetadata,
  type Provider,
  type SeriesHygiene,
  type ServerInfo,
} from '../providers/types.js';
import {
  indexSampleLog,
  LogIndex,
  latestRecords,
  lockSampleLog,
  openSampleLog,
  type RunInfoRecord,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
} from '../sampleLog/index.js';
import { TOOL_VERSION } from '../version.js';
import { CallPolicy, RETRY_DELAY_MS } from './callPolicy.js';
import {
  checkModel,
  checkServer,
  foreignModels,
  loadedModels,
  type Warn,
  warnForeignModels,
} from './preflight.js';
import { type ProgressSink, silentProgress } from './progress.js';
import { ResumePlan } from '../plan/resumePlan.js';
import { Scheduler } from './scheduler.js';
import { selectShard, shardLabel } from '../plan/shard.js';
import type { Shard } from '../config/overrides.js';
import type { PlanGrowth, WorkUnit } from '../checks/workUnit.js';

export interface RunPlanOptions {
  provider: Provider;
  units: readonly WorkUnit[];
  /** Baseline first, then candidate; every unit's model must be in this list. */
  models: readonly string[];
  logPath: string;
  concurrency?: number;
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
  warmup?: boolean;
  warmupTimeoutMs?: number;
  numCtx?: number;
  shard?: Shard | null;
  /** `run --limit N`: recorded in the run record, so that any report of the log says smoke run. */
  limit?: number | null;
  signal?: AbortSignal;
  progress?: ProgressSink;
  /** Unload every other model from the server before each model's series. */
  unloadOthers?: boolean;
  /** Told the model whose series starts, and null once the last one ended (GPU sampling). */
  onSeries?: (model: string | null) => void;
  /** Units the answers add to the plan as they arrive (adaptive sampling). */
  growth?: PlanGrowth;
  /**
   * False: the result's `records` stay empty, so a run holds no record in memory (a job reads
   * the log again to analyse it). Default true.
   */
  keepRecords?: boolean;
  /** Series per model, the models alternating block by block (default 1: model-major). */
  blocks?: number;
  /** True: each call record carries where its model sat during its series. */
  residency?: boolean;
}

export interface RunPlanResult {
  /** True when the signal stopped the run before every unit ran. */
  cancelled: boolean;
  server: ServerInfo;
  /** Metadata of each model, in the order of `models`. */
  models: ModelMetadata[];
  /** Models loaded on the server before the run; null when the server does not say. */
  loadedBefore: string[] | null;
  /** Warnings of the run, the recovery notes first (also in its run record, those aside). */
  warnings: string[];
  /**
   * What this run repaired of an interrupted one (a cut-short line removed, a stale lock taken
   * over): said on the terminal, kept out of the log's run record, so a repaired run reports
   * exactly what an uninterrupted one does.
   */
  recovered: string[];
  /** Records of this run's units: those already in the log plus the new ones, de-duplicated (none when `keepRecords` is false). */
  records: SampleRecord[];
  /** "i/n" when a shard ran, else null. */
  shard: string | null;
  /** Units of the plan (grown ones included), those the log completed, those run. */
  units: { planned: number; skipped: number; executed: number };
  /** Model calls made (warm-ups and retries not counted). */
  calls: number;
  /** Per series that ran: other models on the server, those unloaded, the reported context. */
  series: SeriesHygiene[];
}

/** The runner's settings: the options given, else the defaults of the config's `runner:`. */
function runSettings(options: RunPlanOptions) {
  const defaults = runnerSchema.parse({});
  const timeoutMs = options.timeoutMs;
  const settings = {
    concurrency: options.concurrency ?? defaults.concurrency,
    // Undefined leaves the provider's own limit (from the config).
    timeoutMs,
    retries: options.retries ?? defaults.retries,
    retryDelayMs: options.retryDelayMs ?? RETRY_DELAY_MS,
    numCtx: options.numCtx ?? defaults.numCtx,
    warmup: options.warmup ?? defaults.warmup,
    // The warm-up includes loading the model: four calls' time, and at least two minutes.
    warmupTimeoutMs:
      options.warmupTimeoutMs ?? Math.max(4 * (timeoutMs ?? defaults.timeoutS * 1000), 120_000),
    unloadOthers: options.unloadOthers ?? defaults.unloadOthers,
    signal: options.signal ?? new AbortController().signal,
    progress: options.progress ?? silentProgress,
  };
  if (!Number.isInteger(settings.concurrency) || settings.concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${settings.concurrency}`);
  }
  for (const unit of options.units) {
    if (!options.models.includes(unit.model)) {
      throw new Error(
        `work unit ${unit.check}/${unit.key} is for model ${unit.model}, not in the run`,
      );
    }
  }
  return settings;
}

export async function runPlan(options: RunPlanOptions): Promise<RunPlanResult> {
  mkdirSync(path.dirname(path.resolve(options.logPath)), { recursive: true });
  const lock = lockSampleLog(options.logPath);
  try {
    const result = await runLocked(options);
    if (lock.warning) result.recovered.unshift(lock.warning);
    result.warnings.unshift(...result.recovered.filter((w) => !result.warnings.includes(w)));
    return result;
  } finally {
    lock.release();
  }
}

/** The server, the models' metadata and what is loaded, before any counted call. */
async function preflight(provider: Provider, models: readonly string[], warn: Warn) {
  const checked = await checkServer(provider);
  const metadata: ModelMetadata[] = [];
  for (const model of models) metadata.push(await checkModel(provider, model));
  // An OpenAI-compatible server has no version to say so; its models do.
  const server = { ...checked, simulated: checked.simulated || metadata.some((m) => m.simulated) };
  const loadedBefore = await loadedModels(provider, warn);
  warnForeignModels(foreignModels(loadedBefore, models), warn);
  return { server, metadata, loadedBefore };
}

/** The log's resume index: keys and line offsets, the records read again when a unit asks. */
async function readExisting(logPath: string) {
  return existsSync(logPath)
    ? await indexSampleLog(logPath)
    : { index: new LogIndex(logPath), warnings: [] };
}

async function runLocked(options: RunPlanOptions): Promise<RunPlanResult> {
  const settings = runSettings(options);
  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const existing = await readExisting(options.logPath);
  const recovered = [...existing.warnings];
  // Every request of the run, metadata calls included, ends when the run is stopped.
  const provider = boundToSignal(options.provider, settings.signal);
  const { server, metadata, loadedBefore } = await preflight(provider, options.models, warn).catch(
    (error: unknown) => {
      if (!settings.signal.aborted) throw error;
      throw new InfrastructureError(
        'interrupted before the first request: nothing was measured',
        'run the same command again',
      );
    },
  );
  const resume = new ResumePlan(existing.index, new Map(metadata.map((m) => [m.model, m.digest])));

  const opened = openSampleLog(options.logPath);
  recovered.push(...opened.warnings);
  const log = opened.writer;
  const runInfo: RunInfoRecord = {
    v: SAMPLE_LOG_VERSION,
    kind: 'run',
    startedAt: new Date().toISOString(),
    toolVersion: TOOL_VERSION,
    provider: server,
    models: metadata,
    loadedBefore,
    shard: shardLabel(options.shard),
    ...(options.limit ? { limit: options.limit } : {}),
    warnings,
  };

  const { models, onSeries, growth } = options;
  const policy = new CallPolicy({ ...settings, provider, statusModel: models[0] ?? '', warn });
  const scheduler = new Scheduler({
    ...settings,
    ...{ provider, models, onSeries, growth, keepRecords: options.keepRecords },
    blocks: options.blocks,
    residency: options.residency,
    ...{ policy, resume, log, warn },
  });
  try {
    const planned = scheduler.start(selectShard(options.units, options.shard));
    // Written once the plan is known: its warnings include what the plan's size decided.
    log.append({ ...runInfo, warnings: [...warnings] });
    settings.progress.start(planned.likely, planned.most);
    await scheduler.run();
  } finally {
    log.close();
    existing.index.close();
    settings.progress.finish();
  }
  throwIfFailed(scheduler, policy, provider, server);
  return {
    cancelled: settings.signal.aborted,
    server,
    models: metadata,
    loadedBefore,
    warnings,
    recovered,
    records: latestRecords([...scheduler.carried, ...scheduler.emitted]),
    shard: shardLabel(options.shard),
    units: scheduler.units,
    calls: policy.calls,
    series: scheduler.series,
  };
}

/** A unit's own error first, then a changed model, a lost model, a lost server. */
function throwIfFailed(
  scheduler: Scheduler,
  policy: CallPolicy,
  provider: Provider,
  server: ServerInfo,
): void {
  if (scheduler.unitFailure !== null) throw scheduler.unitFailure;
  if (scheduler.changed !== null) throw scheduler.changed;
  if (policy.modelLost !== null) {
    throw new InfrastructureError(
      `model '${policy.modelLost}' stopped answering during the run ("model missing")`,
      provider.info.provider === 'ollama' ? `ollama pull ${policy.modelLost}` : undefined,
    );
  }
  if (policy.serverLost !== null) {
    throw new InfrastructureError(
      `the model server at ${server.host} stopped answering during the run: ${policy.serverLost.message}`,
      'finished outcomes are in the sample log; run the same command again to resume',
    );
  }
}

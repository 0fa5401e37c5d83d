/**
 * runPlan: executes the work units of a plan against one provider and appends every outcome
 * to the sample log.
 *
 * Options (see RunPlanOptions):
 * - `provider`, `units` (from the checks' plans), `models` (baseline first, then candidate):
 *   all of one model's units run before the next model's (model-major: one load per model);
 * - `logPath`: the sample log, read first for resume and then appended to;
 * - `concurrency` (1): units in flight at once, at most the server's parallel slots; calls
 *   inside one unit are sequential (a maze game);
 * - `timeoutMs` per request, server queue time included (default: the provider's own limit,
 *   which createProvider takes from the config, 30 s unless set); `retries` (1) extra
 *   attempts after a timeout, a dropped connection, a busy server or a refused connection;
 *   `retryDelayMs` (500) before each retry;
 * - `warmup` (true): one uncounted call per model before its first unit, with `numCtx`
 *   (4096, the run's pinned context length, so the model is not reloaded afterwards) and
 *   `warmupTimeoutMs` (the larger of 4 × timeout and 120 s: it includes loading the model);
 * - `perturbedTimeoutShare` (0.05): a model whose timeouts exceed this share of its calls is
 *   marked perturbed in the returned tallies;
 * - `shard` ({index, count}, 1-based): a deterministic slice of the units (see shard.ts);
 * - `signal`: aborting it stops scheduling; calls in flight end as cancelled and write
 *   nothing, the log stays intact and the result says `cancelled: true`;
 * - `progress`: where done/total, rate and time left go (see progress.ts).
 *
 * Resume: each unit gets as `prior` the log's records that count (src/sampleLog/counted.ts)
 * of the same check, model and current digest whose key is the unit key or extends it with
 * "/…" (a game's decisions), narrowed by the unit's `current` to those its settings would
 * produce; records with status `error` or `timeout` are left out so their calls are made
 * again. A unit whose `isComplete(prior)` holds is skipped.
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
import { setTimeout as sleep } from 'node:timers/promises';
import { InfrastructureError } from '../errors.js';
import { tallyRequests } from '../job/tally.js';
import {
  type ModelMetadata,
  type Provider,
  ProviderFailure,
  type ServerInfo,
} from '../providers/types.js';
import type { RequestTally } from '../report/types.js';
import { TOOL_VERSION } from '../version.js';
import { estimatedCalls, longestFirst } from './cost.js';
import {
  asFailure,
  checkModel,
  checkServer,
  loadedModels,
  reportedContext,
  type SeriesHygiene,
  seriesHygiene,
  warmUp,
  warnForeignModels,
} from './preflight.js';
import { type ProgressSink, silentProgress } from './progress.js';
import {
  countedRecords,
  isFinal,
  latestRecords,
  lockSampleLog,
  openSampleLog,
  readSampleLogs,
  type RunInfoRecord,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
} from '../sampleLog/index.js';
import { checkRecordBelongs, indexPrior, priorKey } from './resume.js';
import { type ShardSpec, selectShard, shardLabel } from './shard.js';
import type { CallOutcome, CallSpec, UnitContext, WorkUnit } from './types.js';

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
  perturbedTimeoutShare?: number;
  shard?: ShardSpec | null;
  /** `run --limit N`: recorded in the run record, so that any report of the log says smoke run. */
  limit?: number | null;
  signal?: AbortSignal;
  progress?: ProgressSink;
  /** Unload every other model from the server before each model's series. */
  unloadOthers?: boolean;
  /** Told the model whose series starts, and null once the last one ended (GPU sampling). */
  onSeries?: (model: string | null) => void;
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
  /** Per model, over the records of this run's units (resumed ones included). */
  requests: RequestTally[];
  /** Records of this run's units: those already in the log plus the new ones, de-duplicated. */
  records: SampleRecord[];
  /** "i/n" when a shard ran, else null. */
  shard: string | null;
  units: { planned: number; skipped: number; executed: number };
  /** Model calls made (warm-ups and retries not counted). */
  calls: number;
  /** Per series that ran: other models on the server, those unloaded, the reported context. */
  series: SeriesHygiene[];
}

/** Thrown by `ctx.call` once the run is cancelled; the runner swallows it. */
export class RunCancelled extends Error {
  constructor() {
    super('the run was cancelled');
    this.name = 'RunCancelled';
  }
}

/** Thrown by `ctx.call` once the server stopped answering; the run ends with exit 3. */
class ServerLost extends Error {}

/**
 * The model was re-pulled (another digest) or removed while the run measured it: records of
 * two sets of weights must not meet in one report, and every further request would answer
 * "model missing". The run stops at once (exit 3). A server that does not answer the
 * question is returned as its failure.
 */
async function modelChanged(
  provider: Provider,
  model: string,
  digest: string | null,
): Promise<InfrastructureError | ProviderFailure | null> {
  let now: ModelMetadata;
  try {
    now = await provider.describe(model);
  } catch (error) {
    const failure = asFailure(error);
    // Any other failure is the server's, not the model's: the caller ends the run as such.
    if (failure.kind !== 'model-missing') return failure;
    return new InfrastructureError(
      `model '${model}' is not available on the server at ${provider.info.host}: it disappeared during the run`,
      `${provider.info.provider === 'ollama' ? `ollama pull ${model}` : 'load the model in the server'}; finished outcomes are in the sample log, run the same command again to resume`,
    );
  }
  if (digest === null || now.digest === null || now.digest === digest) return null;
  return new InfrastructureError(
    `${model} was re-pulled during the run: digest ${digest.slice(0, 12)} → ${now.digest.slice(0, 12)}`,
    'records of the old weights stay in the sample log under their digest and are not mixed with the new ones; run again to measure the model now on the server',
  );
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

async function runLocked(options: RunPlanOptions): Promise<RunPlanResult> {
  const provider = options.provider;
  const concurrency = options.concurrency ?? 1;
  // Undefined leaves the provider's own limit (from the config, 30 s by default).
  const timeoutMs = options.timeoutMs;
  const retries = options.retries ?? 1;
  const retryDelayMs = options.retryDelayMs ?? 500;
  const numCtx = options.numCtx ?? 4096;
  const warmupTimeoutMs = options.warmupTimeoutMs ?? Math.max(4 * (timeoutMs ?? 30_000), 120_000);
  const perturbedShare = options.perturbedTimeoutShare ?? 0.05;
  const signal = options.signal ?? new AbortController().signal;
  const progress = options.progress ?? silentProgress;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new RangeError(`concurrency must be a positive integer, got ${concurrency}`);
  }
  for (const unit of options.units) {
    if (!options.models.includes(unit.model)) {
      throw new Error(
        `work unit ${unit.check}/${unit.key} is for model ${unit.model}, not in the run`,
      );
    }
  }

  const warnings: string[] = [];
  const warn = (message: string): void => {
    if (!warnings.includes(message)) warnings.push(message);
  };
  const existing = existsSync(options.logPath)
    ? await readSampleLogs([options.logPath])
    : { records: [], runs: [], warnings: [] };
  const recovered = [...existing.warnings];

  const checked = await checkServer(provider);
  const metadata: ModelMetadata[] = [];
  for (const model of options.models) metadata.push(await checkModel(provider, model));
  // An OpenAI-compatible server has no version to say so; its models do.
  const server = { ...checked, simulated: checked.simulated || metadata.some((m) => m.simulated) };
  const loadedBefore = await loadedModels(provider, warn);
  warnForeignModels(loadedBefore, options.models, warn);

  const planned = selectShard(options.units, options.shard);
  const digestOf = new Map(metadata.map((m) => [m.model, m.digest]));
  // Records of other weights (a model re-pulled since) are never resumed: asked again.
  const priorIndex = indexPrior(countedRecords(existing.records, digestOf).records);
  const pending = new Map<string, { unit: WorkUnit; prior: SampleRecord[] }[]>();
  const carried: SampleRecord[] = [];
  let skipped = 0;
  for (const unit of planned) {
    const digest = digestOf.get(unit.model) ?? null;
    const logged = priorIndex.get(priorKey(unit.check, unit.model, digest, unit.key)) ?? [];
    // Records of a run with other settings are not this unit's answers: asked again.
    const all = unit.current ? unit.current(logged) : logged;
    for (const record of all) carried.push(record);
    // Errors and timeouts are not final: a rerun asks them again.
    const prior = all.filter(isFinal);
    if (unit.isComplete(prior)) {
      skipped++;
      continue;
    }
    const list = pending.get(unit.model) ?? [];
    list.push({ unit, prior });
    pending.set(unit.model, list);
  }

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
    warnings: [...warnings],
  };
  log.append(runInfo);

  const emitted: SampleRecord[] = [];
  let calls = 0;
  let executed = 0;
  let serverLost: ProviderFailure | null = null;
  let unitFailure: unknown = null;
  /** A model that answered "model missing" mid-run: no further request is sent. */
  let modelLost: string | null = null;
  const numCtxSeen = new Set<number>();
  const series: SeriesHygiene[] = [];

  // A server that hangs (accepts requests, never answers) would turn every remaining call into
  // two timeouts, hours of them. After a call times out, one cheap status request (the model
  // list) tells a slow model from a dead server; calls in flight share the same check.
  let liveness: Promise<ProviderFailure | null> | null = null;
  const serverSilent = (): Promise<ProviderFailure | null> => {
    liveness ??= provider
      .describe(options.models[0] ?? '')
      .then(
        () => null,
        (error: unknown) => {
          const failure = asFailure(error);
          const silent = ['timeout', 'unreachable', 'connection-reset'].includes(failure.kind);
          return silent
            ? new ProviderFailure(
                'unreachable',
                `a request timed out and the server did not answer a status request either (${failure.message})`,
              )
            : null;
        },
      )
      .finally(() => {
        liveness = null;
      });
    return liveness;
  };

  const callWithPolicy = async (spec: CallSpec, label: string): Promise<CallOutcome> => {
    const started = performance.now();
    let attempts = 0;
    if (spec.request.options.numCtx !== numCtx && !numCtxSeen.has(spec.request.options.numCtx)) {
      numCtxSeen.add(spec.request.options.numCtx);
      warn(
        `a request uses num_ctx ${spec.request.options.numCtx} while the run pins ${numCtx}: the server reloads the model when it changes`,
      );
    }
    for (;;) {
      if (signal.aborted) throw new RunCancelled();
      if (serverLost || modelLost) throw new ServerLost();
      attempts++;
      try {
        const response = await provider.chat(spec.request, signal, timeoutMs);
        calls++;
        progress.advance(label);
        return { status: 'ok', response, attempts, latencyMs: response.latencyMs };
      } catch (error) {
        const failure = asFailure(error);
        if (failure.kind === 'cancelled' || signal.aborted) throw new RunCancelled();
        const again = (failure.retryable || failure.kind === 'unreachable') && attempts <= retries;
        if (again) {
          await sleep(retryDelayMs, undefined, { signal }).catch(() => undefined);
          continue;
        }
        if (failure.kind === 'unreachable') {
          serverLost ??= failure;
          throw new ServerLost();
        }
        if (failure.kind === 'model-missing') {
          modelLost ??= spec.request.model;
          throw new ServerLost();
        }
        if (failure.kind === 'timeout') {
          // Not an outcome of the model when the server itself went silent: asked again on resume.
          const silent = await serverSilent();
          if (silent) {
            serverLost ??= silent;
            throw new ServerLost();
          }
        }
        calls++;
        progress.advance(label);
        const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
        return {
          // A runaway answer is the model's outcome, not the server's failure: invalid.
          status:
            failure.kind === 'timeout'
              ? 'timeout'
              : failure.kind === 'too-long'
                ? 'invalid'
                : 'error',
          response: null,
          reason: `${failure.kind}: ${failure.message} (${tries})`,
          attempts,
          latencyMs: performance.now() - started,
        };
      }
    }
  };

  const runUnit = async (unit: WorkUnit, prior: SampleRecord[], digest: string | null) => {
    let made = 0;
    const ctx: UnitContext = {
      prior,
      digest,
      signal,
      call: (spec) => {
        made++;
        return callWithPolicy(spec, unit.model);
      },
      embed: (model, texts) => provider.embed(model, [...texts]),
      emit: async (record) => {
        checkRecordBelongs(record, unit, digest);
        log.append(record);
        emitted.push(record);
      },
    };
    try {
      await unit.execute(ctx);
      executed++;
      // Corrects the total by what the unit really made (fewer or more than estimated).
      progress.shrink?.(estimatedCalls(unit) - made);
    } catch (error) {
      if (error instanceof RunCancelled || error instanceof ServerLost) return;
      unitFailure ??= error;
    }
  };

  progress.start([...pending.values()].flat().reduce((sum, p) => sum + estimatedCalls(p.unit), 0));
  const stopped = (): boolean =>
    signal.aborted || serverLost !== null || unitFailure !== null || modelLost !== null;
  let changed: InfrastructureError | null = null;
  try {
    for (const model of options.models) {
      // Longest units (maze games) first, so that none is left running alone at the end.
      const queue = (pending.get(model) ?? []).sort((a, b) => longestFirst(a.unit, b.unit));
      if (queue.length === 0 || stopped()) continue;
      const digest = digestOf.get(model) ?? null;
      const hygiene = await seriesHygiene(
        provider,
        model,
        options.models,
        options.unloadOthers ?? false,
        warn,
      );
      series.push(hygiene);
      options.onSeries?.(model);
      if (options.warmup ?? true) {
        await warmUp(provider, model, numCtx, warmupTimeoutMs, signal, warn);
      }
      let next = 0;
      const worker = async (): Promise<void> => {
        while (!stopped() && next < queue.length) {
          const item = queue[next++];
          if (item) await runUnit(item.unit, item.prior, digest);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
      hygiene.contextLength = await reportedContext(provider, model);
      // The digest read before the run must still be the model's at the end of its series (or
      // when it answered "model missing"): otherwise some records came from other weights.
      if (!signal.aborted && serverLost === null && unitFailure === null) {
        const found = await modelChanged(provider, model, digest);
        if (found instanceof ProviderFailure) serverLost ??= found;
        else changed = found;
        if (found) break;
      }
    }
  } finally {
    options.onSeries?.(null);
    log.close();
    progress.finish();
  }

  if (unitFailure !== null) throw unitFailure;
  if (changed !== null) throw changed;
  if (modelLost !== null) {
    throw new InfrastructureError(
      `model '${modelLost}' stopped answering during the run ("model missing")`,
      provider.info.provider === 'ollama' ? `ollama pull ${modelLost}` : undefined,
    );
  }
  if (serverLost !== null) {
    const lost: ProviderFailure = serverLost;
    throw new InfrastructureError(
      `the model server at ${server.host} stopped answering during the run: ${lost.message}`,
      'finished outcomes are in the sample log; run the same command again to resume',
    );
  }
  const records = latestRecords([...carried, ...emitted]);
  return {
    cancelled: signal.aborted,
    server,
    models: metadata,
    loadedBefore,
    warnings,
    recovered,
    requests: tallyRequests(records, options.models, perturbedShare),
    records,
    shard: shardLabel(options.shard),
    units: { planned: planned.length, skipped, executed },
    calls,
    series,
  };
}

import { copyFile, mkdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ExitCode } from '../errors.js';
import { createProvider } from '../providers/create.js';
import { loadEngine } from '../providers/embedded/engine.js';
import type { Provider } from '../providers/types.js';
import { createProgress } from '../runner/progress.js';
import { runPlan } from '../runner/run.js';
import { analyseLogs } from './analyse.js';
import { checkContext, loadChecks, modelOrder, planChecks } from './checks.js';
import type { JobOutcome, RunJobOptions } from './types.js';

/** The sample log of a run: output.log, or <output.dir>/samples.jsonl. */
export function sampleLogPath(options: RunJobOptions): string {
  const { config } = options.loaded;
  return path.resolve(config.output.log ?? path.join(config.output.dir, 'samples.jsonl'));
}

const CACHED_LOG = 'samples.jsonl';

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
  const ctx = checkContext(loaded);
  const checks = await loadChecks(ctx);
  const units = planChecks(checks, ctx);
  // node-llama-cpp is an optional peer dependency: say how to install it before anything runs.
  if (config.provider.kind === 'embedded' && !options.provider) await loadEngine();

  const logPath = sampleLogPath(options);
  await mkdir(path.dirname(logPath), { recursive: true });
  const cached = options.cacheDir ? path.resolve(options.cacheDir, CACHED_LOG) : null;
  // A fresh runner starts from the cached log: every record whose model digest, prompt and
  // options still match is reused instead of asked again.
  if (cached && existsSync(cached) && !existsSync(logPath)) await copyFile(cached, logPath);

  const stream = options.progress ?? process.stderr;
  const interactive = options.interactive ?? Boolean((stream as NodeJS.WriteStream).isTTY);
  const result = await runPlan({
    provider: options.provider ?? createProvider(config),
    units,
    models: modelOrder(ctx),
    logPath,
    concurrency: config.runner.concurrency,
    timeoutMs: config.runner.timeoutS * 1000,
    retries: config.runner.retries,
    warmup: config.runner.warmup,
    numCtx: config.runner.numCtx,
    perturbedTimeoutShare: config.runner.perturbedTimeoutShare,
    shard: options.shard ?? null,
    signal: options.signal,
    progress: createProgress({ stream, interactive }),
  });

  if (cached) {
    await mkdir(path.dirname(cached), { recursive: true });
    await copyFile(logPath, cached);
  }
  const outcome = await analyseLogs({
    loaded,
    logs: [logPath],
    checks,
    cancelled: result.cancelled,
  });
  if (result.shard === null) return outcome;
  // A slice of the plan can neither pass nor fail the gate: `analyze` over every shard's log
  // decides. A matrix job of one shard fails only when its slice could not be measured.
  return {
    ...outcome,
    shard: result.shard,
    exitCode: outcome.cancelled ? ExitCode.infrastructure : ExitCode.pass,
  };
}

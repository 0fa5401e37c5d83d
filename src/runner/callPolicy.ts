/**
 * How one model call is made: the request timeout, retries after a transient failure, and
 * the liveness check that tells a slow model from a server that stopped answering. Failures
 * that end the run (server lost, model missing, cancelled) are remembered here and thrown to
 * the unit as RunCancelled / ServerLost, which the scheduler swallows.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type ChatResponse, type Provider, ProviderFailure } from '../providers/types.js';
import { asFailure, type Warn } from './preflight.js';
import type { ProgressSink } from './progress.js';
import type { CallOutcome, CallSpec } from '../checks/workUnit.js';
import { scrubSecrets } from '../text/secrets.js';

/** Thrown by `ctx.call` once the run is cancelled; the runner swallows it. */
export class RunCancelled extends Error {
  constructor() {
    super('the run was cancelled');
    this.name = 'RunCancelled';
  }
}

/** Thrown by `ctx.call` once the server stopped answering; the run ends with exit 3. */
export class ServerLost extends Error {}

/** Pause before a retry: long enough for a busy server to free a slot, short against a run. */
export const RETRY_DELAY_MS = 500;

export interface CallPolicyOptions {
  provider: Provider;
  signal: AbortSignal;
  /** Undefined leaves the provider's own limit. */
  timeoutMs: number | undefined;
  retries: number;
  retryDelayMs: number;
  /** The run's pinned context length: another one in a request reloads the model. */
  numCtx: number;
  /** The model asked about by the liveness check (any model of the run). */
  statusModel: string;
  progress: ProgressSink;
  warn: Warn;
}

export class CallPolicy {
  /** Model calls made (warm-ups and retries not counted). */
  calls = 0;
  /** The server stopped answering: no further request is sent. */
  serverLost: ProviderFailure | null = null;
  /** A model that answered "model missing" mid-run: no further request is sent. */
  modelLost: string | null = null;
  private readonly numCtxSeen = new Set<number>();
  private liveness: Promise<ProviderFailure | null> | null = null;

  constructor(private readonly options: CallPolicyOptions) {}

  async call(spec: CallSpec, label: string): Promise<CallOutcome> {
    const { provider, signal, timeoutMs, retries } = this.options;
    const started = performance.now();
    this.checkContext(spec.request.options.numCtx);
    for (let attempts = 1; ; attempts++) {
      if (signal.aborted) throw new RunCancelled();
      if (this.serverLost || this.modelLost) throw new ServerLost();
      try {
        const response = masked(await provider.chat(spec.request, signal, timeoutMs));
        this.counted(label);
        return { status: 'ok', response, attempts, latencyMs: response.latencyMs };
      } catch (error) {
        const failure = asFailure(error);
        if (failure.kind === 'cancelled' || signal.aborted) throw new RunCancelled();
        if ((failure.retryable || failure.kind === 'unreachable') && attempts <= retries) {
          await sleep(this.options.retryDelayMs, undefined, { signal }).catch(() => undefined);
          continue;
        }
        await this.stopIfLost(failure, spec.request.model);
        this.counted(label);
        return failedOutcome(failure, attempts, performance.now() - started);
      }
    }
  }

  private counted(label: string): void {
    this.calls++;
    this.options.progress.advance(label);
  }

  private checkContext(numCtx: number): void {
    if (numCtx === this.options.numCtx || this.numCtxSeen.has(numCtx)) return;
    this.numCtxSeen.add(numCtx);
    this.options.warn(
      `a request uses num_ctx ${numCtx} while the run pins ${this.options.numCtx}: the server reloads the model when it changes`,
    );
  }

  /** Throws ServerLost when the failure is the server's or the model's, not an outcome. */
  private async stopIfLost(failure: ProviderFailure, model: string): Promise<void> {
    if (failure.kind === 'unreachable') {
      this.serverLost ??= failure;
      throw new ServerLost();
    }
    if (failure.kind === 'model-missing') {
      this.modelLost ??= model;
      throw new ServerLost();
    }
    if (failure.kind !== 'timeout') return;
    // Not an outcome of the model when the server itself went silent: asked again on resume.
    const silent = await this.serverSilent();
    if (silent) {
      this.serverLost ??= silent;
      throw new ServerLost();
    }
  }

  /**
   * A server that hangs (accepts requests, never answers) would turn every remaining call
   * into two timeouts, hours of them. After a call times out, one cheap status request (the
   * model list) tells a slow model from a dead server; calls in flight share the same check.
   */
  private serverSilent(): Promise<ProviderFailure | null> {
    this.liveness ??= this.options.provider
      .describe(this.options.statusModel)
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
        this.liveness = null;
      });
    return this.liveness;
  }
}

/**
 * The answer with every registered secret masked, before anything reads it: a server that
 * echoes the API key into an answer must not have it graded, lower-cased, cut to a reading and
 * logged in pieces that no later mask recognises.
 */
function masked(response: ChatResponse): ChatResponse {
  const content = scrubSecrets(response.content);
  const thinking = response.thinking === null ? null : scrubSecrets(response.thinking);
  if (content === response.content && thinking === response.thinking) return response;
  return { ...response, content, thinking };
}

function failedOutcome(failure: ProviderFailure, attempts: number, latencyMs: number): CallOutcome {
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`;
  // A runaway answer is the model's outcome, not the server's failure: invalid.
  const status =
    failure.kind === 'timeout' ? 'timeout' : failure.kind === 'too-long' ? 'invalid' : 'error';
  return {
    status,
    response: null,
    reason: `${failure.kind}: ${failure.message} (${tries})`,
    attempts,
    latencyMs,
  };
}

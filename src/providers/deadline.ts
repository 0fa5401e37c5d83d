/**
 * One request's stop signal: the caller's signal (the run is being cancelled) combined with
 * the per-request timeout. Which of the two fired decides how a failure is classified, so
 * the classification never has to guess from an error message.
 */
import { ProviderFailure } from './types.js';

export interface Deadline {
  readonly signal: AbortSignal;
  timedOut(): boolean;
  cancelled(): boolean;
  /** Stops the timer; call when the request is over. */
  dispose(): void;
}

export function startDeadline(timeoutMs: number, caller?: AbortSignal): Deadline {
  const controller = new AbortController();
  let timedOut = false;
  const onCallerAbort = (): void => controller.abort(caller?.reason);
  if (caller?.aborted) controller.abort(caller.reason);
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`no answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  return {
    signal: controller.signal,
    timedOut: () => timedOut && !(caller?.aborted ?? false),
    cancelled: () => caller?.aborted ?? false,
    dispose: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}

/**
 * What every provider makes of a failed request first: cancelled by the caller, out of time
 * (or `timedOut`, a client's own timeout error), a failure already classified, an answer cut
 * for its size. Null: the provider classifies the error itself.
 */
export function deadlineFailure(
  error: unknown,
  deadline: Deadline,
  timeoutMs: number,
  timedOut = false,
): ProviderFailure | null {
  if (deadline.cancelled()) return new ProviderFailure('cancelled', 'cancelled');
  if (deadline.timedOut() || timedOut) {
    return new ProviderFailure('timeout', `no answer within ${formatSeconds(timeoutMs)}`);
  }
  return failureIn(error);
}

/**
 * A failure already classified, where a client library wrapped it (the `openai` client turns
 * an error of its fetch into a connection error whose cause it is).
 */
function failureIn(error: unknown): ProviderFailure | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current instanceof ProviderFailure) return current;
    current = (current as Error & { cause?: unknown }).cause;
  }
  return null;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

/**
 * Runs `work` under a fresh deadline, disposed when it ends; every failure goes through the
 * provider's `classify`, so a caller only ever sees a ProviderFailure.
 */
export async function underDeadline<T>(
  timeoutMs: number,
  signal: AbortSignal | undefined,
  classify: (error: unknown, deadline: Deadline, timeoutMs: number) => ProviderFailure,
  work: (deadline: Deadline) => Promise<T>,
): Promise<T> {
  const deadline = startDeadline(timeoutMs, signal);
  try {
    return await work(deadline);
  } catch (error) {
    throw classify(error, deadline, timeoutMs);
  } finally {
    deadline.dispose();
  }
}

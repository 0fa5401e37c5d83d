/**
 * Failures below HTTP (refused connection, reset socket, header timeout) surface from
 * Node's fetch as `TypeError: fetch failed` with the system error somewhere in the `cause`
 * chain; client libraries wrap them once more. These helpers find the code and name the kind.
 */
import { ProviderFailure, type ProviderFailureKind } from './types.js';

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const RESET = new Set([
  'ECONNRESET',
  'EPIPE',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_ABORTED',
]);
const TIMEOUT = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

/** The first system or undici error code in the cause chain, if any. */
export function errorCode(error: unknown): string | null {
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/.test(code)) return code;
    const message = (current as { message?: unknown }).message;
    if (typeof message === 'string' && /socket hang up|other side closed/i.test(message)) {
      return 'ECONNRESET';
    }
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}

export function transportFailureKind(error: unknown): ProviderFailureKind | null {
  const code = errorCode(error);
  // fetch refuses some addresses itself ("bad port", an invalid URL): nothing was reached.
  if (code === null) return isFetchFailure(error) ? 'unreachable' : null;
  if (UNREACHABLE.has(code)) return 'unreachable';
  if (RESET.has(code)) return 'connection-reset';
  if (TIMEOUT.has(code)) return 'timeout';
  return null;
}

const SAID: Partial<Record<ProviderFailureKind, string>> = {
  unreachable: 'connection failed: ',
  'connection-reset': 'connection lost: ',
};

/** A failure below HTTP as the runner classifies it, or null when the error is not one. */
export function transportFailure(error: unknown): ProviderFailure | null {
  const kind = transportFailureKind(error);
  return kind && new ProviderFailure(kind, `${SAID[kind] ?? ''}${describeError(error)}`);
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  // "fetch failed" says nothing; the reason is one level down.
  if (
    error.cause instanceof Error &&
    error.cause.message &&
    !message.includes(error.cause.message)
  ) {
    message = `${message}: ${error.cause.message}`;
  }
  const code = errorCode(error);
  return code && !message.includes(code) ? `${message} (${code})` : message;
}

function isFetchFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current instanceof Error; depth++) {
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    current = current.cause;
  }
  return false;
}

/** Kind for an HTTP error status from a model server. */
export function statusFailureKind(status: number): ProviderFailureKind {
  if (status === 404) return 'model-missing';
  if (status === 503 || status === 429) return 'busy';
  if (status >= 500) return 'server-error';
  return 'bad-request';
}

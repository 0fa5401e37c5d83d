import { describe, expect, it } from 'vitest';
import {
  describeError,
  statusFailureKind,
  transportFailureKind,
} from '../../src/providers/transportErrors.js';

/** How Node's fetch reports a failure: TypeError "fetch failed" with the reason as cause. */
function fetchFailed(cause: Error): TypeError {
  return new TypeError('fetch failed', { cause });
}

function systemError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}

describe('transport failures', () => {
  it('finds the system error code through the cause chain', () => {
    const refused = fetchFailed(systemError('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED'));
    expect(transportFailureKind(refused)).toBe('unreachable');
    expect(describeError(refused)).toBe('fetch failed: connect ECONNREFUSED 127.0.0.1:1');
    const closed = fetchFailed(systemError('other side closed', 'UND_ERR_SOCKET'));
    expect(transportFailureKind(closed)).toBe('connection-reset');
    expect(describeError(closed)).toBe('fetch failed: other side closed (UND_ERR_SOCKET)');
    // Both address families refused: Node reports an AggregateError carrying the code.
    const both = fetchFailed(Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' }));
    expect(transportFailureKind(both)).toBe('unreachable');
    expect(transportFailureKind(fetchFailed(new Error('socket hang up')))).toBe('connection-reset');
    expect(transportFailureKind(fetchFailed(systemError('t', 'UND_ERR_HEADERS_TIMEOUT')))).toBe(
      'timeout',
    );
  });

  it('treats an address fetch refuses by itself as unreachable, other errors as unknown', () => {
    expect(transportFailureKind(fetchFailed(new Error('bad port')))).toBe('unreachable');
    expect(transportFailureKind(new Error('something else'))).toBeNull();
  });

  it('maps HTTP statuses to failure kinds', () => {
    expect([400, 404, 429, 500, 502, 503].map(statusFailureKind)).toEqual([
      'bad-request',
      'model-missing',
      'busy',
      'server-error',
      'server-error',
      'busy',
    ]);
  });
});

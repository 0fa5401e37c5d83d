/**
 * A streamed NDJSON body read in one pass: bytes counted against the wire cap, decoded once,
 * split on newlines, each line parsed once and handed on as soon as it is complete. A line
 * that is not JSON fails the request (a client that skipped it would hand on a reply with a
 * hole in it); blank lines are allowed, as between Ollama's records.
 */
import { ProviderFailure } from './types.js';

export interface NdjsonOptions {
  /** Bytes of body allowed; past it the body is cancelled (the connection dropped). */
  wireBytes: number;
  /** The failure thrown once `wireBytes` is passed. */
  tooLong: () => Error;
  /** Each parsed line; return true to stop reading (the last record arrived). */
  onValue: (value: unknown) => boolean;
}

/** Reads `body` to its end or until `onValue` says stop; true when it said stop. */
export async function readNdjson(
  body: ReadableStream<Uint8Array>,
  options: NdjsonOptions,
): Promise<boolean> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = '';
  let seen = 0;
  let finished = false;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      seen += value.byteLength;
      if (seen > options.wireBytes) throw options.tooLong();
      const text = decoder.decode(value, { stream: true });
      let newline = text.indexOf('\n');
      if (newline < 0) {
        // A line still open is only appended to: splitting it on every chunk would be quadratic.
        pending += text;
        continue;
      }
      let line = pending + text.slice(0, newline);
      for (;;) {
        if (handleLine(line, options.onValue)) {
          finished = true;
          return true;
        }
        const start = newline + 1;
        newline = text.indexOf('\n', start);
        if (newline < 0) {
          pending = text.slice(start);
          break;
        }
        line = text.slice(start, newline);
      }
    }
    finished = true;
    return handleLine(pending + decoder.decode(), options.onValue);
  } finally {
    // A body left mid-way (too long, a bad line, a failure of the caller) is cancelled, which
    // drops its connection; a finished one is left to the client, which keeps it alive.
    if (!finished) await reader.cancel().catch(() => undefined);
  }
}

function handleLine(line: string, onValue: (value: unknown) => boolean): boolean {
  if (line.trim() === '') return false;
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw malformed(line);
  }
  return onValue(value);
}

/** A reply line that is not JSON: the server's fault, not retried. */
export function malformed(line: string): ProviderFailure {
  return new ProviderFailure('server-error', `malformed JSON in the reply: ${line.slice(0, 80)}`);
}

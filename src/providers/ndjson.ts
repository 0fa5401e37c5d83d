/**
 * A streamed NDJSON body read in one pass: chunks decoded once, split on newlines, each line
 * parsed once and handed on as soon as it is complete. A line that is not JSON fails the
 * request (a client that skipped it would hand on a reply with a hole in it); blank lines
 * are allowed, as between Ollama's records.
 */
import { ProviderFailure } from './types.js';

export class NdjsonLines {
  private readonly decoder = new TextDecoder();
  private pending = '';

  /** `onValue`: each parsed line; returns true to stop (the last record arrived). */
  constructor(private readonly onValue: (value: unknown) => boolean) {}

  /** Takes one chunk of the body; true once `onValue` said stop (the rest is not parsed). */
  push(chunk: Uint8Array): boolean {
    const text = this.decoder.decode(chunk, { stream: true });
    let newline = text.indexOf('\n');
    if (newline < 0) {
      // A line still open is only appended to: splitting it on every chunk would be quadratic.
      this.pending += text;
      return false;
    }
    let line = this.pending + text.slice(0, newline);
    for (;;) {
      if (this.handle(line)) return true;
      const start = newline + 1;
      newline = text.indexOf('\n', start);
      if (newline < 0) {
        this.pending = text.slice(start);
        return false;
      }
      line = text.slice(start, newline);
    }
  }

  /** The body ended: parses a last line left without a newline; true when `onValue` said stop. */
  end(): boolean {
    const line = this.pending + this.decoder.decode();
    this.pending = '';
    return this.handle(line);
  }

  private handle(line: string): boolean {
    if (line.trim() === '') return false;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw malformed(line);
    }
    return this.onValue(value);
  }
}

/** A reply line that is not JSON: the server's fault, not retried. */
export function malformed(line: string): ProviderFailure {
  return new ProviderFailure('server-error', `malformed JSON in the reply: ${line.slice(0, 80)}`);
}

/**
 * The one-pass NDJSON reader of Ollama chats: lines cut anywhere by the network, blank lines
 * and a malformed line; and, through a bare HTTP server, how
 * each shape of a streamed reply comes out of OllamaProvider.chat.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NdjsonLines } from '../../src/providers/ndjson.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { type ChatRequest, ProviderFailure } from '../../src/providers/types.js';

/** The values `pieces` give, chunk after chunk, and whether the reader was told to stop. */
function values(pieces: readonly (string | Uint8Array)[]): { seen: unknown[]; stopped: boolean } {
  const seen: unknown[] = [];
  const lines = new NdjsonLines((value) => {
    seen.push(value);
    return (value as { done?: boolean }).done === true;
  });
  const encoder = new TextEncoder();
  for (const piece of pieces) {
    if (lines.push(typeof piece === 'string' ? encoder.encode(piece) : piece)) {
      return { seen, stopped: true };
    }
  }
  return { seen, stopped: lines.end() };
}

function thrown(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  return null;
}

describe('NdjsonLines', () => {
  it('parses lines cut anywhere by the chunks, skips blank lines, stops at the last record', () => {
    const { seen, stopped } = values([
      '{"a":',
      '1}\n\n{"b"',
      ':2}\n{"c":3}\n{"done":',
      'true}\n{"after":"done"}\n',
    ]);
    expect(seen).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }, { done: true }]);
    expect(stopped).toBe(true);
  });

  it('reads a last line without a newline, and a character split between two chunks', () => {
    const euro = new TextEncoder().encode('{"t":"€"}\n{"done":true}');
    const { seen, stopped } = values([euro.subarray(0, 7), euro.subarray(7)]);
    expect(seen).toEqual([{ t: '€' }, { done: true }]);
    expect(stopped).toBe(true);
  });

  it('says so when the body ends before the last record', () => {
    const { seen, stopped } = values(['{"a":1}\n', '{"b":2}\n']);
    expect(seen).toEqual([{ a: 1 }, { b: 2 }]);
    expect(stopped).toBe(false);
  });

  it('fails on a malformed line as a server error quoting the line, whatever follows', () => {
    const error = thrown(() => values(['{"a":1}\n{"b":', '\n{"done":true}\n']));
    expect(error).toBeInstanceOf(ProviderFailure);
    expect((error as ProviderFailure).kind).toBe('server-error');
    expect((error as ProviderFailure).message).toBe('malformed JSON in the reply: {"b":');
  });

  it('fails on a malformed last line without a newline', () => {
    const error = thrown(() => values(['{"a":1}\n{"done":tru']));
    expect((error as ProviderFailure).kind).toBe('server-error');
  });
});

let server: Server | null = null;
afterEach(async () => {
  const open = server;
  server = null;
  if (!open) return;
  open.closeAllConnections();
  await new Promise((resolve) => open.close(resolve));
});

/** An Ollama stand-in whose /api/chat streams `lines` as they are (each one write). */
async function replying(lines: readonly string[]): Promise<OllamaProvider> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      for (const line of lines) res.write(line);
      res.end();
    });
  });
  const listening = server;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const { port } = listening.address() as AddressInfo;
  return new OllamaProvider({ host: `http://127.0.0.1:${port}`, timeoutMs: 5000, keepAlive: '1m' });
}

const request: ChatRequest = {
  model: 'stand-in:1b',
  messages: [{ role: 'user', content: 'Which letter?' }],
  options: { temperature: 0, seed: 1, numCtx: 2048, numPredict: 16, think: false },
};

const piece = (content: string): string =>
  `${JSON.stringify({ model: 'stand-in:1b', message: { role: 'assistant', content }, done: false })}\n`;
const closing = `${JSON.stringify({ model: 'stand-in:1b', message: { role: 'assistant', content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 12, eval_count: 3 })}\n`;

async function failure(provider: OllamaProvider): Promise<ProviderFailure> {
  const error = await provider.chat(request).catch((e: unknown) => e);
  if (!(error instanceof ProviderFailure)) throw new Error(`expected a failure, got ${error}`);
  return error;
}

describe('OllamaProvider.chat over a streamed reply', () => {
  it('joins the pieces and takes the counts from the closing record', async () => {
    const provider = await replying([piece('{"answer"'), piece(':"B"}'), closing]);
    const reply = await provider.chat(request);
    expect(reply).toMatchObject({
      content: '{"answer":"B"}',
      thinking: null,
      doneReason: 'stop',
      promptTokens: 12,
      completionTokens: 3,
    });
  });

  it('fails the request on a malformed line in the middle, not a reply with a hole', async () => {
    const provider = await replying([
      piece('{"answer"'),
      '{"model":"stand-in:1b","mess\n',
      closing,
    ]);
    const failed = await failure(provider);
    expect(failed.kind).toBe('server-error');
    expect(failed.message).toMatch(/^malformed JSON in the reply: \{"model":"stand-in:1b","mess/);
  });

  it('fails on a line that is JSON but not a record', async () => {
    const failed = await failure(await replying([piece('x'), '[1,2]\n', closing]));
    expect(failed.kind).toBe('server-error');
  });

  it('takes an error line after the start as an interrupted reply, worth a retry', async () => {
    const failed = await failure(await replying([piece('x'), '{"error":"runner died"}\n']));
    expect(failed.kind).toBe('connection-reset');
    expect(failed.message).toBe('reply interrupted: runner died');
  });

  it('takes a stream that ends before its closing record as interrupted', async () => {
    const failed = await failure(await replying([piece('x'), piece('y')]));
    expect(failed.kind).toBe('connection-reset');
    expect(failed.message).toMatch(/ended before it was done/);
  });
});

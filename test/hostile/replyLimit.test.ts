/**
 * Replies are bounded: a server that streams an answer forever, or one endless line, gets a
 * `too-long` failure as soon as the cap is passed, and its connection is dropped — the call
 * ends quickly and the bytes taken stay near the cap, whatever the server would send.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import { type ChatRequest, ProviderFailure } from '../../src/providers/types.js';

interface Endless {
  url: string;
  /** Bytes written before the client hung up. */
  sent(): number;
  /** Resolves when the client closed the connection. */
  closed: Promise<void>;
  server: Server;
}

/** Writes `chunk()` as fast as the socket takes it, until the client goes away. */
function startEndless(
  route: (req: IncomingMessage, res: ServerResponse) => (() => string) | null,
): Promise<Endless> {
  let sent = 0;
  let markClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    markClosed = resolve;
  });
  const server = createServer((req, res) => {
    const chunk = route(req, res);
    if (!chunk) return;
    let open = true;
    res.on('close', () => {
      open = false;
      markClosed();
    });
    const pump = (): void => {
      while (open) {
        const text = chunk();
        sent += Buffer.byteLength(text);
        if (!res.write(text)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    pump();
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}`, sent: () => sent, closed, server });
    });
  });
}

let running: Endless | null = null;
afterEach(async () => {
  const server = running?.server;
  running = null;
  if (!server) return;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const request: ChatRequest = {
  model: 'runaway:1b',
  messages: [{ role: 'user', content: 'Say something.' }],
  options: { temperature: 0, seed: 1, numCtx: 2048, numPredict: -1, think: false },
};

async function failureOf(work: Promise<unknown>): Promise<ProviderFailure> {
  try {
    await work;
  } catch (error) {
    if (error instanceof ProviderFailure) return error;
    throw error;
  }
  throw new Error('expected a ProviderFailure');
}

const limits = { maxReplyBytes: 64 * 1024, maxEmbeddingBytes: 1024 * 1024 };

describe('reply size cap', () => {
  it('Ollama: an answer streamed forever is too-long at 64 kB and the connection dropped', async () => {
    running = await startEndless((req, res) => {
      if (req.url !== '/api/chat') return null;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      const line = `${JSON.stringify({ model: 'runaway:1b', message: { role: 'assistant', content: 'blah '.repeat(20) }, done: false })}\n`;
      return () => line;
    });
    const provider = new OllamaProvider({
      host: running.url,
      timeoutMs: 30_000,
      keepAlive: '1m',
      limits,
    });
    const started = performance.now();
    const failure = await failureOf(provider.chat(request));
    expect(failure.kind).toBe('too-long');
    expect(failure.message).toContain('64 kB');
    expect(failure.message).toContain('runner.max-reply-bytes');
    expect(failure.retryable).toBe(false);
    await running.closed;
    expect(performance.now() - started).toBeLessThan(10_000);
    // What the server got out before the drop: the cap plus socket buffers, not gigabytes.
    expect(running.sent()).toBeLessThan(16 * 1024 * 1024);
  });

  it('Ollama: one endless line without a newline is cut on the wire', async () => {
    running = await startEndless((req, res) => {
      if (req.url !== '/api/chat') return null;
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      let first = true;
      return () => {
        if (first) {
          first = false;
          return '{"model":"runaway:1b","message":{"role":"assistant","content":"';
        }
        return 'x'.repeat(16 * 1024);
      };
    });
    const provider = new OllamaProvider({
      host: running.url,
      timeoutMs: 30_000,
      keepAlive: '1m',
      limits,
    });
    const failure = await failureOf(provider.chat(request));
    expect(failure.kind).toBe('too-long');
    await running.closed;
    expect(running.sent()).toBeLessThan(16 * 1024 * 1024);
  });

  it('OpenAI-compatible: a body that never ends is cut and the connection dropped', async () => {
    running = await startEndless((req, res) => {
      if (!req.url?.endsWith('/chat/completions')) return null;
      res.writeHead(200, { 'content-type': 'application/json' });
      let first = true;
      return () => {
        if (first) {
          first = false;
          return '{"id":"x","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"';
        }
        return 'y'.repeat(16 * 1024);
      };
    });
    const provider = new OpenAIProvider({
      host: running.url,
      apiKey: 'k',
      timeoutMs: 30_000,
      limits,
    });
    const started = performance.now();
    const failure = await failureOf(provider.chat(request));
    expect(failure.kind).toBe('too-long');
    await running.closed;
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(running.sent()).toBeLessThan(16 * 1024 * 1024);
  });

  it('OpenAI-compatible: a whole answer above the cap is too-long, one below it is kept', async () => {
    let size = 100 * 1024;
    running = await startEndless((req, res) => {
      if (!req.url?.endsWith('/chat/completions')) return null;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'x',
          object: 'chat.completion',
          created: 0,
          model: 'runaway:1b',
          choices: [
            {
              index: 0,
              finish_reason: 'stop',
              message: { role: 'assistant', content: 'z'.repeat(size) },
            },
          ],
        }),
      );
      return null;
    });
    const provider = new OpenAIProvider({
      host: running.url,
      apiKey: 'k',
      timeoutMs: 30_000,
      limits,
    });
    expect((await failureOf(provider.chat(request))).kind).toBe('too-long');
    size = 60 * 1024;
    expect((await provider.chat(request)).content).toHaveLength(60 * 1024);
  });

  it('Ollama: a huge error body is quoted by its start only', async () => {
    running = await startEndless((req, res) => {
      if (req.url !== '/api/chat') return null;
      res.writeHead(500, { 'content-type': 'text/plain' });
      return () => '\u001b[2J boom '.repeat(1000);
    });
    const provider = new OllamaProvider({
      host: running.url,
      timeoutMs: 30_000,
      keepAlive: '1m',
      limits,
    });
    const failure = await failureOf(provider.chat(request));
    expect(failure.kind).toBe('server-error');
    expect(failure.message.length).toBeLessThanOrEqual(500);
    expect(failure.message).not.toContain('\u001b');
    await running.closed;
  });
});

describe('a too-long answer in the runner', () => {
  it('is recorded invalid with reason too-long, not retried, not an error', async () => {
    const { simulate, ollamaFor, tempLog } = await import('../runner/simulated.js');
    const { probeUnits } = await import('../runner/probe.js');
    const { runPlan } = await import('../../src/runner/run.js');
    const { readSampleLogs } = await import('../../src/sampleLog/index.js');
    const { tooLong } = await import('../../src/providers/replyLimit.js');
    const sim = await simulate('models:\n  - name: base:1b\n    probe: {}\n');
    try {
      const real = ollamaFor(sim);
      let asked = 0;
      const provider = Object.assign(Object.create(Object.getPrototypeOf(real)), real, {
        chat: (chat: ChatRequest, signal?: AbortSignal, timeoutMs?: number) => {
          if (chat.messages[0]?.content !== 'probe 1') return real.chat(chat, signal, timeoutMs);
          asked++;
          return Promise.reject(tooLong(65536, 'runner.max-reply-bytes'));
        },
      }) as typeof real;
      const log = tempLog();
      await runPlan({
        provider,
        units: probeUnits('base:1b', 3),
        models: ['base:1b'],
        logPath: log,
        concurrency: 1,
      });
      const { records } = await readSampleLogs([log]);
      const calls = records.filter((r) => r.kind === 'call');
      expect(calls.map((r) => r.status)).toEqual(['ok', 'invalid', 'ok']);
      expect(calls[1]?.reason).toMatch(
        /^too-long: the reply passed 64 kB \(runner\.max-reply-bytes\)/,
      );
      expect(asked).toBe(1);
    } finally {
      await sim.close();
    }
  });
});

/**
 * A model server (or a proxy in front of it) that answers with a redirect to another host
 * must not get model-gate to call that host: not the Ollama metadata calls, not a chat, not
 * an OpenAI-compatible request with its Authorization header. One policy for every request:
 * a redirect within provider.host's origin (scheme, host and port) is followed, one to any
 * other origin is refused with a message naming both, and nothing is sent there. A different
 * port on the same loopback address is another host.
 */

import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { OpenAIProvider } from '../../src/providers/openai.js';
import type { ChatRequest } from '../../src/providers/types.js';
import { forgetSecrets } from '../../src/text/secrets.js';
import { smallRun, writeSmallConfig } from '../support/smallRun.js';

const KEY = 'sk-redirected-key-0123456789';

interface Seen {
  method: string;
  url: string;
  authorization: string;
}

interface Fake {
  url: string;
  seen: Seen[];
  close(): Promise<void>;
}

async function fakeServer(
  handle: (req: IncomingMessage, res: ServerResponse, base: string) => void,
): Promise<Fake> {
  const seen: Seen[] = [];
  let base = '';
  const server: Server = createServer((req, res) => {
    seen.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: String(req.headers.authorization ?? ''),
    });
    req.resume();
    handle(req, res, base);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

/** The host a redirect leads to: answers everything, as a plausible model server would. */
let elsewhere: Fake;
/** Redirects every request to `elsewhere`, path and query kept. */
let redirecting: Fake;
/** Redirects each request once within itself (to /moved/…), then answers as Ollama and OpenAI do. */
let sameHost: Fake;

/** What a plausible model server answers, by path (Ollama's and OpenAI's endpoints). */
const ANSWERS: Record<string, unknown> = {
  '/api/version': { version: '0.12.0' },
  '/api/tags': { models: [{ name: 'm:1b', model: 'm:1b', digest: 'sha256:abc', details: {} }] },
  '/api/show': { details: { family: 'x' } },
  '/api/ps': { models: [] },
  '/v1/models': { object: 'list', data: [{ id: 'm:1b', object: 'model' }] },
  '/v1/chat/completions': {
    id: 'c',
    object: 'chat.completion',
    created: 0,
    model: 'm:1b',
    choices: [{ index: 0, message: { role: 'assistant', content: 'B' }, finish_reason: 'stop' }],
  },
};

function answer(req: IncomingMessage, res: ServerResponse): void {
  const route = new URL(req.url ?? '/', 'http://x').pathname.replace(/^\/moved/, '');
  if (route === '/api/chat') {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.end(`${JSON.stringify({ message: { content: 'B' }, done: true, done_reason: 'stop' })}\n`);
  } else if (route in ANSWERS) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(ANSWERS[route]));
  } else res.writeHead(404).end();
}

beforeAll(async () => {
  elsewhere = await fakeServer((req, res) => answer(req, res));
  redirecting = await fakeServer((req, res) => {
    const status = req.method === 'POST' ? 307 : 302;
    res.writeHead(status, { location: `${elsewhere.url}${req.url ?? '/'}` });
    res.end();
  });
  sameHost = await fakeServer((req, res, base) => {
    if (req.url?.startsWith('/moved/')) {
      answer(req, res);
      return;
    }
    const status = req.method === 'POST' ? 308 : 301;
    res.writeHead(status, { location: `${base}/moved${req.url ?? '/'}` });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([elsewhere.close(), redirecting.close(), sameHost.close()]);
});
afterEach(() => {
  elsewhere.seen.length = 0;
  forgetSecrets();
  vi.unstubAllEnvs();
});

const chat: ChatRequest = {
  model: 'm:1b',
  messages: [{ role: 'user', content: 'A or B?' }],
  options: { temperature: 0, seed: 1, numCtx: 2048, numPredict: 8, think: false },
};

async function refusal(work: () => Promise<unknown>): Promise<string> {
  try {
    await work();
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error('expected the request to be refused');
}

function expectRefusedRedirect(message: string): void {
  expect(message).toContain('redirect');
  expect(message).toContain(elsewhere.url.replace('http://', ''));
  expect(message).toContain('not followed');
}

describe('Ollama: a redirect to another host is not followed', () => {
  const provider = () =>
    new OllamaProvider({ host: redirecting.url, timeoutMs: 5000, keepAlive: '5m' });

  it('the version, model list, model details, running models and embeddings', async () => {
    const p = provider();
    for (const call of [
      () => p.version(),
      () => p.describe('m:1b'),
      () => p.running(),
      () => p.loadedModels(),
      () => p.embed('m:1b', ['text']),
    ]) {
      expectRefusedRedirect(await refusal(call));
    }
    expect(elsewhere.seen).toEqual([]);
  });

  it('a chat', async () => {
    expectRefusedRedirect(await refusal(() => provider().chat(chat)));
    expect(elsewhere.seen).toEqual([]);
  });

  it('a redirect within the same host is followed', async () => {
    const p = new OllamaProvider({ host: sameHost.url, timeoutMs: 5000, keepAlive: '5m' });
    expect(await p.version()).toBe('0.12.0');
    expect((await p.describe('m:1b')).digest).toBe('abc');
    expect(sameHost.seen.some((r) => r.url === '/moved/api/version')).toBe(true);
    // A chat (node:http, not fetch) too: the 308 keeps the POST.
    expect((await p.chat(chat)).content).toBe('B');
    expect(sameHost.seen.find((r) => r.url === '/moved/api/chat')?.method).toBe('POST');
  });
});

describe('a chat redirected within the same host by a 302', () => {
  it('is not sent again as a GET: it fails with the reason', async () => {
    const moving = await fakeServer((req, res, base) => {
      res.writeHead(302, { location: `${base}/elsewhere${req.url ?? '/'}` });
      res.end();
    });
    try {
      const p = new OllamaProvider({ host: moving.url, timeoutMs: 5000, keepAlive: '5m' });
      expect(await refusal(() => p.chat(chat))).toContain('drops its body: not followed');
      expect(moving.seen.map((r) => r.method)).toEqual(['POST']);
    } finally {
      await moving.close();
    }
  });
});

describe('a server that redirects to itself without end', () => {
  it('is left after 5 redirects, for fetch and for the Ollama chat alike', async () => {
    const loop = await fakeServer((req, res, base) => {
      const n = Number(new URL(req.url ?? '/', base).searchParams.get('n') ?? 0);
      res.writeHead(req.method === 'POST' ? 307 : 302, {
        location: `${base}${new URL(req.url ?? '/', base).pathname}?n=${n + 1}`,
      });
      res.end();
    });
    try {
      const ollama = new OllamaProvider({ host: loop.url, timeoutMs: 5000, keepAlive: '5m' });
      const openai = new OpenAIProvider({ host: loop.url, apiKey: KEY, timeoutMs: 5000 });
      for (const call of [
        () => ollama.version(),
        () => ollama.chat(chat),
        () => openai.chat(chat),
      ]) {
        const asked = loop.seen.length;
        expect(await refusal(call)).toContain('more than 5 redirects');
        expect(loop.seen.length - asked).toBe(6);
      }
    } finally {
      await loop.close();
    }
  });
});

describe('OpenAI-compatible: a redirect to another host is not followed, with or without the key', () => {
  const provider = () =>
    new OpenAIProvider({ host: redirecting.url, apiKey: KEY, timeoutMs: 5000 });

  it('the model list, a chat and embeddings', async () => {
    const p = provider();
    for (const call of [
      () => p.version(),
      () => p.describe('m:1b'),
      () => p.chat(chat),
      () => p.embed('m:1b', ['text']),
    ]) {
      expectRefusedRedirect(await refusal(call));
    }
    // The first host got the key (it is the configured one); the other host got nothing.
    expect(redirecting.seen.some((r) => r.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(elsewhere.seen).toEqual([]);
  });

  it('a redirect within the same host is followed, the key with it', async () => {
    const p = new OpenAIProvider({ host: sameHost.url, apiKey: KEY, timeoutMs: 5000 });
    const reply = await p.chat(chat);
    expect(reply.content).toBe('B');
    const moved = sameHost.seen.find((r) => r.url === '/moved/v1/chat/completions');
    expect(moved).toMatchObject({ method: 'POST', authorization: `Bearer ${KEY}` });
  });

  it('a run against a redirecting server stops at the preflight with the reason, exit 3', async () => {
    vi.stubEnv('MODEL_GATE_TEST_KEY', KEY);
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-redirect-'));
    const config = writeSmallConfig(dir, redirecting.url, {
      provider: { kind: 'openai', 'api-key-env': 'MODEL_GATE_TEST_KEY' },
    });
    const run = await smallRun(config);
    expect(run.code).toBe(ExitCode.infrastructure);
    expectRefusedRedirect(run.stderr);
    expect(run.stderr).not.toContain(KEY);
    expect(elsewhere.seen).toEqual([]);
  });
});

/**
 * A server that accepts a connection and never answers holds a request open until its
 * timeout (runner.timeout-s, up to minutes). A runner cancelling the job sends SIGTERM and
 * waits a few seconds before SIGKILL: every network wait must end on the first SIGTERM —
 * the preflight's metadata calls as well as the chats — and the command exit within 5 s.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sourceCli } from '../support/bundled.js';
import { writeSmallConfig } from '../support/smallRun.js';

interface Silent {
  url: string;
  /** Paths asked for, in order. */
  asked: string[];
  close(): Promise<void>;
}

/**
 * A server that answers the paths in `answers` and leaves every other request open, silent.
 */
async function silentServer(answers: Record<string, unknown>): Promise<Silent> {
  const asked: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const route = new URL(req.url ?? '/', 'http://x').pathname;
    asked.push(route);
    req.resume();
    if (route in answers) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answers[route]));
    }
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

const MODELS = ['demo-base:1b', 'demo-cand:1b'];
const OLLAMA_METADATA = {
  '/api/version': { version: '0.12.0' },
  '/api/tags': {
    models: MODELS.map((name) => ({
      name,
      model: name,
      digest: `sha256:${name.length}`,
      details: {},
    })),
  },
  '/api/show': { details: { family: 'x' } },
  '/api/ps': { models: [] },
};

let silent: Silent;
let chatsHang: Silent;

beforeAll(async () => {
  silent = await silentServer({});
  chatsHang = await silentServer(OLLAMA_METADATA);
});
afterAll(async () => {
  await Promise.all([silent.close(), chatsHang.close()]);
});

/**
 * Starts `model-gate run` against `host`, sends SIGTERM once `ready` says the request to wait
 * on is open, and measures how long the process takes to exit after it.
 */
async function termination(
  host: string,
  provider: Record<string, unknown>,
  ready: () => boolean,
): Promise<{ ms: number; code: number | null; stderr: string }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-sigterm-'));
  const config = writeSmallConfig(dir, host, {
    provider,
    runner: { 'timeout-s': 600, retries: 0 },
  });
  const child: ChildProcess = spawn(
    process.execPath,
    [sourceCli(), 'run', '--config', config, '--limit', '2'],
    {
      env: { ...process.env, MODEL_GATE_TEST_KEY: 'sk-sigterm-test-key' },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  let gone = false;
  const exited = new Promise<number | null>((done) =>
    child.on('exit', (code) => {
      gone = true;
      done(code);
    }),
  );
  for (let waited = 0; !ready() && !gone && waited < 30_000; waited += 20) await sleep(20);
  // A process that ended before it waited on the server has nothing to say about SIGTERM.
  if (gone) throw new Error(`model-gate ended before it waited on the server:\n${stderr}`);
  // The request is open and unanswered: the process is waiting on the network.
  await sleep(200);
  const sent = performance.now();
  child.kill('SIGTERM');
  const safety = setTimeout(() => child.kill('SIGKILL'), 20_000);
  const code = await exited;
  clearTimeout(safety);
  return { ms: performance.now() - sent, code, stderr };
}

describe('SIGTERM ends a command that waits on a silent server within 5 s', () => {
  it('Ollama: waiting for the version in the preflight', async () => {
    const before = silent.asked.length;
    const result = await termination(silent.url, {}, () => silent.asked.length > before);
    expect(result.ms).toBeLessThan(5000);
    expect(result.code).not.toBeNull();
    expect(result.stderr).toContain('SIGTERM');
  });

  it('OpenAI-compatible: waiting for the model list in the preflight', async () => {
    const before = silent.asked.length;
    const result = await termination(
      silent.url,
      { kind: 'openai', 'api-key-env': 'MODEL_GATE_TEST_KEY' },
      () => silent.asked.length > before,
    );
    expect(result.ms).toBeLessThan(5000);
    expect(result.code).not.toBeNull();
  });

  it('Ollama: waiting for the first chats', async () => {
    const result = await termination(chatsHang.url, {}, () =>
      chatsHang.asked.includes('/api/chat'),
    );
    expect(result.ms).toBeLessThan(5000);
    expect(result.code).not.toBeNull();
  });
});

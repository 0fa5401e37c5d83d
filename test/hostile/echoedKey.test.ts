/**
 * A server (or a proxy in front of it) that puts the request's Authorization header in the
 * answer itself, not in an error body. The grade's reading of an open answer — the sample
 * log's `answer` field — is the answer lower-cased and cut at 80 characters: a mask applied
 * after that transformation finds neither the lower-cased key nor the part of it before the
 * cut. The answer is masked where it enters the run, before any grader reads it, and a failure
 * message before it is cut.
 */

import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { stringify } from 'yaml';
import { ProviderFailure } from '../../src/providers/types.js';
import { forgetSecrets, registerSecret } from '../../src/text/secrets.js';
import { smallRun, writeSmallConfig } from '../support/smallRun.js';

/** Upper-case letters (lower-casing changes it) and long enough to straddle the 80-character cut. */
const KEY = 'sk-Echo-9F8E7D6C5B4A3210-ZyXwVuT';
/** Answers start with this much text: the key then straddles the reading's 80-character cut. */
const LEAD = `${'word '.repeat(12)}Bearer`;

let server: Server;
let host: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const authorization = String(req.headers.authorization ?? '');
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json' });
    if (pathname === '/v1/models') {
      res.end(
        JSON.stringify({
          object: 'list',
          data: ['demo-base:1b', 'demo-cand:1b'].map((id) => ({ id, object: 'model' })),
        }),
      );
      return;
    }
    // The answer quotes the header: "… Bearer sk-…".
    const content = `${LEAD} ${authorization.replace(/^Bearer /, '')} and more words after it`;
    res.end(
      JSON.stringify({
        id: 'c',
        object: 'chat.completion',
        created: 0,
        model: 'm',
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 5, completion_tokens: 30 },
      }),
    );
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  host = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(
  () =>
    new Promise<void>((done) => {
      server.close(() => done());
      server.closeAllConnections();
    }),
);
afterEach(() => {
  forgetSecrets();
  vi.unstubAllEnvs();
});

/** Every spelling of a part of the key that a transformation after the mask would leave. */
function keyTraces(text: string): string[] {
  const lower = text.toLowerCase();
  const pieces = [KEY.slice(0, 12), KEY.slice(-12)].map((p) => p.toLowerCase());
  return pieces.filter((piece) => lower.includes(piece));
}

describe('a key echoed in an answer', () => {
  it('is masked in samples.jsonl before the grader lower-cases and cuts the answer', async () => {
    vi.stubEnv('MODEL_GATE_TEST_KEY', KEY);
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-echo-'));
    const items = path.join(dir, 'items.yml');
    writeFileSync(
      items,
      stringify(
        ['a', 'b', 'c'].map((id) => ({
          id,
          domain: 'd',
          prompt: `Say ${id}.`,
          expected: id,
          grader: 'exact',
        })),
      ),
    );
    const config = writeSmallConfig(dir, host, {
      provider: { kind: 'openai', 'api-key-env': 'MODEL_GATE_TEST_KEY' },
      churn: { items },
    });
    const run = await smallRun(config);
    expect(run.stderr).not.toContain('internal error');
    const out = path.join(dir, 'out');
    const log = readFileSync(path.join(out, 'samples.jsonl'), 'utf8');
    // The run recorded the answers and their readings…
    expect(log).toContain('"answer":"\\"word word');
    expect(log).toContain('Bearer ***');
    // …and no piece of the key, in any case, in the log or any other file written.
    for (const name of readdirSync(out, { recursive: true }) as string[]) {
      const file = path.join(out, name);
      if (!/\.(jsonl|json|md|svg|html)$/.test(file)) continue;
      expect({ file, traces: keyTraces(readFileSync(file, 'utf8')) }).toEqual({ file, traces: [] });
    }
    expect(keyTraces(`${run.stdout}${run.stderr}`)).toEqual([]);
  });

  it('is masked in a failure message before the message is cut', () => {
    registerSecret(KEY);
    // The message is cut at 500 characters; the key straddles the cut.
    const failure = new ProviderFailure('server-error', `${'x'.repeat(490)} ${KEY}`);
    expect(keyTraces(failure.message)).toEqual([]);
    expect(failure.message).toContain('***');
  });
});

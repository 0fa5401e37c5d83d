/**
 * No secret the process holds may appear in anything it writes or prints. A server (or a
 * proxy in front of it) that echoes its request in error bodies is the way one leaks: the API
 * key named by `provider.api-key-env` reached the terminal, report.json, the sample log, the
 * cache, summary.md (escaped as `sk\-…`, which a literal search misses), the PR comment and a
 * `::warning::` line; a token in the host's query string reached the log and the report.
 *
 * Here an echoing proxy stands in front of the simulator: one chat in three fails with an
 * error body that quotes the Authorization header and the URL it was called with. Everything
 * written or printed is searched for each secret, also with markdown's backslashes and
 * zero-width characters taken out.
 */
import {
  createServer,
  type IncomingMessage,
  request,
  type Server,
  type ServerResponse,
} from 'node:http';
import { lstatSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { commentBody, commentMarker } from '../../src/github/comment.js';
import { readReport } from '../../src/report/read.js';
import { renderSummary } from '../../src/report/summary.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { forgetSecrets, scrubSecrets } from '../../src/text/secrets.js';
import { startFakeGitHub } from '../github/fakeGitHub.js';
import { runActionInProcess } from '../support/actionInProcess.js';
import { CHURN_SCENARIO, smallRun, writeSmallConfig } from '../support/smallRun.js';

/** Characters markdown escapes, so that only a search that undoes escaping finds it raw. */
const API_KEY = 'sk-test_4f9a.Secret*Value-7Q';
const QUERY_TOKEN = 'qt_9d8c7b6a5f4e3d2c1b0a';

let simulator: RunningSimulator;
let proxy: { url: string; seen: { url: string; authorization: string }[]; close(): Promise<void> };

/** Forwards to the simulator; answers one chat in three with an error that echoes the request. */
async function startEchoingProxy(target: string): Promise<typeof proxy> {
  const seen: { url: string; authorization: string }[] = [];
  let chats = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const authorization = String(req.headers.authorization ?? '');
    seen.push({ url: req.url ?? '', authorization });
    const pathname = new URL(req.url ?? '/', 'http://proxy').pathname;
    if (pathname.endsWith('/chat/completions') && ++chats % 3 === 0) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: {
            message: `upstream refused the call: Authorization: ${authorization} on ${req.url}`,
          },
        }),
      );
      return;
    }
    const forward = request(
      `${target}${pathname}`,
      { method: req.method, headers: { ...req.headers, host: new URL(target).host } },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      }),
  };
}

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
  proxy = await startEchoingProxy(simulator.url);
});
afterAll(async () => {
  await proxy.close();
  await simulator.close();
});
afterEach(() => {
  forgetSecrets();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** Every file under `dir`, recursively. */
function filesUnder(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (lstatSync(file).isFile()) out[file] = readFileSync(file, 'utf8');
  }
  return out;
}

/** Where `secret` appears in `texts`, raw or as markdown escaping leaves it. */
function leaks(texts: Record<string, string>, secret: string): string[] {
  const plain = (text: string) => text.replace(/[\\\u200b\u200c\u200d]/g, '');
  return Object.entries(texts)
    .filter(([, text]) => text.includes(secret) || plain(text).includes(plain(secret)))
    .map(([where]) => where);
}

/** Runs the CLI, catching what reaches the process's stderr directly (progress, notes). */
async function runCapturing(config: string, argv: readonly string[] = []) {
  let direct = '';
  vi.spyOn(process.stderr, 'write').mockImplementation(((chunk: unknown) => {
    direct += String(chunk);
    return true;
  }) as typeof process.stderr.write);
  const run = await smallRun(config, argv);
  vi.restoreAllMocks();
  return { ...run, direct };
}

describe('an echoing server behind an API key and a query token', () => {
  it('gets both secrets, and nothing written or printed holds either', async () => {
    vi.stubEnv('MODEL_GATE_TEST_KEY', API_KEY);
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-secrets-'));
    const config = writeSmallConfig(dir, `${proxy.url}/?token=${QUERY_TOKEN}&tenant=lab`, {
      provider: { kind: 'openai', 'api-key-env': 'MODEL_GATE_TEST_KEY', 'allow-host-query': true },
    });
    const cache = path.join(dir, 'cache');
    const run = await runCapturing(config, ['--cache-dir', cache]);

    // The server got the key and the query: the run used them.
    expect(proxy.seen.some((r) => r.authorization === `Bearer ${API_KEY}`)).toBe(true);
    expect(proxy.seen.some((r) => r.url.includes(`token=${QUERY_TOKEN}`))).toBe(true);
    // And echoed them back in error bodies, which the run recorded (scrubbed).
    const report = await readReport(path.join(dir, 'out', 'report.json'));
    // What the run wrote: the output folder (report, summary, charts, sample log) and the cache.
    const written = { ...filesUnder(path.join(dir, 'out')), ...filesUnder(cache) };
    expect(Object.values(written).join('\n')).toContain('upstream refused the call');

    const markdown = renderSummary(report, { chartsUrl: 'https://github.test/run/1' });
    const everything: Record<string, string> = {
      stdout: run.stdout,
      stderr: run.stderr,
      'process stderr': run.direct,
      comment: commentBody(commentMarker('default'), markdown, 'cut'),
      ...written,
    };
    expect(Object.keys(written).some((f) => f.startsWith(cache))).toBe(true);
    for (const secret of [API_KEY, QUERY_TOKEN]) expect(leaks(everything, secret)).toEqual([]);
    // What stands in their place says a secret was there.
    expect(written[path.join(dir, 'out', 'report.json')]).toContain('Bearer ***');
  });

  it('a host with a query string is refused unless provider.allow-host-query allows it', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-secrets-'));
    const config = writeSmallConfig(dir, `${proxy.url}/?token=${QUERY_TOKEN}`);
    const run = await runCapturing(config);
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain('line 5: provider.host: a URL with a query string');
    expect(run.stderr).toContain('provider.allow-host-query: true');
    expect(
      leaks({ stdout: run.stdout, stderr: run.stderr, direct: run.direct }, QUERY_TOKEN),
    ).toEqual([]);
    const flag = await runCapturing(config, [
      '--ollama-host',
      `http://127.0.0.1:9/?key=${QUERY_TOKEN}`,
    ]);
    expect(flag.code).toBe(ExitCode.badInput);
    expect(flag.stderr).toContain(
      'provider.host (from flag --ollama-host): a URL with a query string',
    );
    expect(flag.stderr).not.toContain(QUERY_TOKEN);
  });
});

describe('the same server behind the action', () => {
  it('masks the key in the runner, and no log line, summary or PR comment holds it', async () => {
    const github = await startFakeGitHub('octo', 'models', 7);
    try {
      const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-secrets-'));
      const config = writeSmallConfig(dir, proxy.url, {
        provider: { kind: 'openai', 'api-key-env': 'MODEL_GATE_TEST_KEY' },
      });
      const run = await runActionInProcess(
        { config, 'github-token': 'app', samples: '2' },
        { GITHUB_API_URL: github.url, MODEL_GATE_TEST_KEY: API_KEY },
      );
      // The runner is told to mask it (it then hides it in the log on its own)…
      expect(run.stdout).toContain(`::add-mask::${API_KEY}`);
      // …and no other line, annotation, summary or comment carries it.
      const lines = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'));
      expect(run.stdout).toContain('::warning::');
      const comment = github.comments.map((c) => c.body).join('\n');
      expect(comment).toContain('upstream refused the call');
      expect(
        leaks(
          {
            log: lines.join('\n'),
            summary: run.summary,
            comment,
            ...filesUnder(path.join(dir, 'out')),
          },
          API_KEY,
        ),
      ).toEqual([]);
    } finally {
      await github.close();
    }
  });
});

describe('the scrubber', () => {
  it('finds a secret as markdown, JSON, a URL and HTML escape it, and leaves other text be', async () => {
    const { registerSecret } = await import('../../src/text/secrets.js');
    registerSecret('a"b\\c&d e*f');
    registerSecret('abc'); // too short to tell from text: not scrubbed
    const spellings = [
      'a"b\\c&d e*f',
      JSON.stringify('a"b\\c&d e*f').slice(1, -1),
      encodeURIComponent('a"b\\c&d e*f'),
      'a&quot;b\\c&amp;d e*f',
      'a\\"b\\\\c\\&d e\\*f',
      'a"b\\c&d e*\u200bf',
    ];
    for (const text of spellings) expect(scrubSecrets(`<${text}>`)).toBe('<***>');
    expect(scrubSecrets('abc abcd')).toBe('abc abcd');
  });
});

/**
 * The messages that point at the fix, as a user meets them through the command line: a typo in
 * a nested setting, a mistyped model tag, and a server that answers but is not Ollama. Each
 * ends with the right exit code and names the right word, with no stack trace and no HTML.
 */
import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { cli, writeSmallConfig } from '../support/smallRun.js';

let simulator: RunningSimulator;
let web: Server;
let webUrl: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
  web = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(
      `<html><head><title>Intranet</title></head><body>${'<p>x</p>'.repeat(200)}</body></html>`,
    );
  });
  await new Promise<void>((done) => web.listen(0, '127.0.0.1', done));
  webUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await simulator.close();
  await new Promise<void>((done) => web.close(() => done()));
});

const dir = (): string => mkdtempSync(path.join(tmpdir(), 'mg-fix-'));

function expectNoTrace(stderr: string): void {
  expect(stderr).not.toMatch(/internal error|\n\s+at /);
}

describe('through the command line', () => {
  it('a nested setting one letter off: exit 2, its line and the setting meant', async () => {
    const config = writeSmallConfig(dir(), simulator.url, { runner: { concurency: 2 } });
    const result = await cli(['validate', '--config', config]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /line \d+: unknown setting runner\.concurency; did you mean runner\.concurrency\?/,
    );
    expectNoTrace(result.stderr);
  });

  it('a mistyped model tag: exit 3, the tag meant, and no pull of the typo', async () => {
    const config = writeSmallConfig(dir(), simulator.url, {
      models: { candidate: 'demo-cnad:1b' },
    });
    const result = await cli(['run', '--config', config, '--limit', '2']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('demo-cnad:1b');
    expect(result.stderr).toContain('did you mean demo-cand:1b?');
    expect(result.stderr).not.toContain('ollama pull demo-cnad:1b');
    expectNoTrace(result.stderr);
  });

  it('a web server in place of Ollama: exit 3, its page title, no HTML, no "ollama serve"', async () => {
    const config = writeSmallConfig(dir(), webUrl);
    const result = await cli(['run', '--config', config, '--limit', '2']);
    expect(result.code).toBe(3);
    expect(result.stderr).toContain(`${webUrl} answered but is not an Ollama server`);
    expect(result.stderr).toContain('"Intranet"');
    expect(result.stderr).not.toContain('<p>');
    expect(result.stderr).not.toContain('ollama serve');
    expectNoTrace(result.stderr);
  });
});

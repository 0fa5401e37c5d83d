/**
 * What a server says about itself is untrusted text, and what it labels its reply matters:
 * - a reply labelled `text/html` is a web page (a proxy's sign-in page, the wrong host), not
 *   Ollama's NDJSON stream, whatever its body parses as: refused with words, never read;
 * - bidi overrides (U+202E) and other controls in the server's version and model details are
 *   stored in report.json as visible escapes, not raw (they reorder what a reader sees);
 * - a persona name that cannot be used is refused with the rules a name follows.
 */
import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCatalogue } from '../../src/checks/personas/catalogue.js';
import type { InputError } from '../../src/errors.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { ProviderFailure } from '../../src/providers/types.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { CHURN_SCENARIO, smallRun, writeSmallConfig } from '../support/smallRun.js';

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;

describe('a chat reply labelled as a web page', () => {
  let server: Server;
  let url = '';
  beforeAll(async () => {
    server = createServer((_req, res) => {
      // A valid Ollama stream, but labelled as HTML.
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(
        `${JSON.stringify({ message: { content: 'A' }, done: false })}\n${JSON.stringify({ message: { content: '' }, done: true, done_reason: 'stop' })}\n`,
      );
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));

  it('is refused with a message that says what it was and what was expected', async () => {
    const provider = new OllamaProvider({ host: url, timeoutMs: 5000, keepAlive: '1m' });
    const request = {
      model: 'm:1b',
      messages: [{ role: 'user' as const, content: 'Which?' }],
      options: { temperature: 0, seed: 1, numCtx: 2048, numPredict: 8, think: false },
    };
    const failure = await provider.chat(request).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ProviderFailure);
    expect((failure as ProviderFailure).message).toBe(
      "the server answered with content-type text/html; charset=utf-8, not Ollama's NDJSON stream (application/x-ndjson): is provider.host a proxy's or another web server's page rather than the Ollama server?",
    );
  });
});

describe('bidi controls in what the server says about itself', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-bidi-'));
    const scenario = path.join(dir, 'bidi.yml');
    writeFileSync(
      scenario,
      readFileSync(CHURN_SCENARIO, 'utf8')
        .replace(/^seed: 7$/m, 'seed: 7\nversion: "0.12.\\u202E3 simulated"')
        .replace(
          '  - name: demo-base:1b\n',
          '  - name: demo-base:1b\n    family: "llama\\u202Eevil\\u2066"\n    quantization-level: "Q4\\u200F_K\\u001b[31m"\n',
        ),
    );
    simulator = await startSimulator({ port: 0, scenario });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('are stored in report.json as visible escapes', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-bidi-'));
    const run = await smallRun(writeSmallConfig(dir, simulator.url));
    expect(run.stderr).not.toContain('internal error');
    const text = readFileSync(path.join(dir, 'out', 'report.json'), 'utf8');
    expect(text).not.toMatch(BIDI);
    expect(text).not.toContain('\u001b');
    const report = JSON.parse(text);
    expect(report.run.provider.version).toBe('0.12.\\u202E3 simulated');
    expect(report.run.models.baseline.family).toBe('llama\\u202Eevil\\u2066');
    expect(report.run.models.baseline.quantization).toBe('Q4\\u200F_K\\u001B[31m');
  });
});

describe('persona names', () => {
  it('a refused name is told the rules names follow', () => {
    const catalogue = (name: string) =>
      `language: en\nassistants:\n  ${name}: "You help."\n  other: "You help too."\nprobes: [x, y]\n`;
    for (const name of ['"two words"', '-dash-first', 'x'.repeat(65)]) {
      let said = '';
      try {
        parseCatalogue(catalogue(name), 'personas.yml');
      } catch (error) {
        said = (error as InputError).details.join('\n');
      }
      expect(said).toContain(
        'a name starts with a letter or digit, holds only letters, digits, "-" and "_", at most 64 characters',
      );
    }
  });
});

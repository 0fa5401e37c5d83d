/**
 * `provider.api-key-env` names the variable whose value is sent as a Bearer token to the
 * configured host. A pull request that edits model-gate.yml could name any variable of the
 * job — the runner's own tokens, a cloud key — and send it to a host of its choice. Only
 * names that say they hold a model server's key are taken (`*_API_KEY`, `MODEL_GATE_*`), and
 * never one of the runner's own (`GITHUB_*`, `ACTIONS_*`, `RUNNER_*`): `validate` and `run`
 * refuse the others with exit 2, before any request, without reading the variable.
 */

import { mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { forgetSecrets } from '../../src/text/secrets.js';
import { cli, smallRun, writeSmallConfig } from '../support/smallRun.js';

const SECRET = 'ghs_runnerTokenValue0123456789abcdef';

let server: Server;
let host: string;
let requests = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests++;
    req.resume();
    res.writeHead(500).end();
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

function configNaming(variable: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-keyenv-'));
  return writeSmallConfig(dir, host, { provider: { kind: 'openai', 'api-key-env': variable } });
}

describe('provider.api-key-env names only a variable meant for a model server key', () => {
  for (const variable of [
    'GITHUB_TOKEN',
    'ACTIONS_RUNTIME_TOKEN',
    'ACTIONS_ID_TOKEN_REQUEST_TOKEN',
    'AWS_SECRET_ACCESS_KEY',
    'NPM_TOKEN',
    'GITHUB_API_KEY',
    'RUNNER_API_KEY',
  ]) {
    it(`refuses ${variable} in validate and run, exit 2, before any request`, async () => {
      vi.stubEnv(variable, SECRET);
      const config = configNaming(variable);
      const before = requests;
      for (const result of [await cli(['validate', '--config', config]), await smallRun(config)]) {
        expect(result.code).toBe(ExitCode.badInput);
        expect(result.stderr).toContain('provider.api-key-env');
        expect(result.stderr).toContain(variable);
        expect(result.stderr).toMatch(/line \d+/);
        expect(result.stderr).toContain('_API_KEY');
        expect(`${result.stdout}${result.stderr}`).not.toContain(SECRET);
      }
      expect(requests).toBe(before);
    });
  }

  it('refuses the name whatever its case', async () => {
    vi.stubEnv('github_token', SECRET);
    const result = await cli(['validate', '--config', configNaming('github_token')]);
    expect(result.code).toBe(ExitCode.badInput);
    expect(result.stderr).toContain('provider.api-key-env');
  });

  for (const variable of ['OPENAI_API_KEY', 'VLLM_API_KEY', 'MODEL_GATE_KEY']) {
    it(`takes ${variable}`, async () => {
      vi.stubEnv(variable, 'sk-accepted-key-123');
      const result = await cli(['validate', '--config', configNaming(variable)]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(ExitCode.pass);
    });
  }
});

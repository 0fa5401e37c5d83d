/**
 * Requests that fail after retries measured nothing: above the check's max-timeout-share the
 * check is inconclusive. Before this rule a candidate whose every request got a 500 passed.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { ExitCode } from '../../src/errors.js';
import { FailedRequests } from '../../src/pipeline/failedRequests.js';
import { runJob } from '../../src/pipeline/run.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { parseScenario } from '../../src/simulator/scenario.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import type { PersonasCallRecord } from '../../src/checks/personas/records.js';

function call(model: string, status: PersonasCallRecord['status'], reason?: string): SampleRecord {
  return {
    v: 1,
    kind: 'call',
    check: 'personas',
    model,
    digest: null,
    key: 'a/probe-0',
    sample: 0,
    options: { temperature: 0.3, seed: 7, num_ctx: 4096, num_predict: 320, think: false },
    prompt_sha256: 'x',
    status,
    ...(reason ? { reason } : {}),
    latency_ms: 1,
    attempts: 1,
    persona: 'a',
    probe: 0,
    text: '',
  };
}

function failedRequestFindings(
  records: readonly SampleRecord[],
  check: 'personas' | 'churn',
  models: readonly string[],
  limit: number,
) {
  const failed = new FailedRequests();
  for (const record of records) failed.add(record);
  return failed.findings(check, models, limit);
}

describe('failed requests, counted as the records arrive', () => {
  it('flags a model whose failed share is above the limit, naming the commonest reason', () => {
    // cand: 2 errors of 20 calls = 10% > 5%; base: 1 of 20 = 5%, not above 5%.
    const records = [
      ...Array.from({ length: 19 }, () => call('base', 'ok')),
      call('base', 'error', 'server-error: 500 boom (1 attempt)'),
      ...Array.from({ length: 18 }, () => call('cand', 'ok')),
      call('cand', 'error', 'busy: 503 server busy (2 attempts)'),
      call('cand', 'error', 'busy: 503 server busy (2 attempts)'),
    ];
    const findings = failedRequestFindings(records, 'personas', ['base', 'cand'], 0.05);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({
      check: 'personas',
      rule: 'failed-requests',
      severity: 'inconclusive',
      values: { model: 'cand', failed: 2, total: 20, share: 0.1, limit: 0.05 },
    });
    expect(findings[0]?.message).toContain('2 of 20 personas requests failed');
    expect(findings[0]?.message).toContain('"busy: 503 server busy"');
  });

  it('ignores timeouts and invalid answers (the checks rule on those) and other checks', () => {
    const records = [call('cand', 'timeout'), call('cand', 'invalid'), call('cand', 'ok')];
    expect(failedRequestFindings(records, 'personas', ['cand'], 0.05)).toEqual([]);
    expect(failedRequestFindings(records, 'churn', ['cand'], 0)).toEqual([]);
  });
});

describe('a candidate the server cannot run', () => {
  let simulator: RunningSimulator;
  beforeAll(async () => {
    const scenario = parseScenario(
      `seed: 1
parallel: 4
models:
  - name: fine:1b
    churn: { items: fixtures/items/general.yml, accuracy: 0.6, spread: 1, difficulty-seed: 1 }
  - name: crashing:1b
    churn: { items: fixtures/items/general.yml, accuracy: 0.6, spread: 1, difficulty-seed: 1 }
    faults: [{kind: status, status: 500, message: "llama runner process has terminated"}]
`,
      'test scenario',
    );
    simulator = await startSimulator({ port: 0, scenario });
  });
  afterAll(async () => {
    await simulator.close();
  });

  it('is inconclusive (exit 3), not a pass', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-failed-'));
    const loaded = loadConfig({
      checks: CHECKS,
      file: null,
      env: {},
      cwd: process.cwd(),
      overrides: [
        { path: ['provider', 'host'], value: simulator.url, source: 'test' },
        { path: ['models', 'baseline'], value: 'fine:1b', source: 'test' },
        { path: ['models', 'candidate'], value: 'crashing:1b', source: 'test' },
        { path: ['checks'], value: ['churn'], source: 'test' },
        { path: ['churn', 'items'], value: 'fixtures/items/general.yml', source: 'test' },
        { path: ['churn', 'samples'], value: 2, source: 'test' },
        { path: ['runner', 'concurrency'], value: 4, source: 'test' },
        { path: ['output', 'dir'], value: dir, source: 'test' },
      ],
    });
    const quiet = new Writable({ write: (_chunk, _encoding, done) => done() });
    const outcome = await runJob({ loaded, progress: quiet });
    expect(outcome.report.verdict.status).toBe('inconclusive');
    expect(outcome.exitCode).toBe(ExitCode.infrastructure);
    const reason = outcome.report.verdict.reasons.find((r) => r.rule === 'failed-requests');
    // 63 items × (2 samples + 1 greedy) = 189 requests, every one a 500.
    expect(reason?.message).toContain('crashing:1b: 189 of 189 churn requests failed');
    expect(reason?.message).toContain('llama runner process has terminated');
  });
});

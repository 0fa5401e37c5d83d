/**
 * The committed bundle, run the way the runner runs it: `node dist/index.js` with INPUT_*
 * variables, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and an event payload, against the simulator.
 * (CI rebuilds dist/ and fails when it differs, so this exercises the code under review.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type ActionRun, parseOutputs } from '../support/actionRun.js';

let demo: RunningSimulator;
let aa: RunningSimulator;

beforeAll(async () => {
  demo = await startSimulator({ port: 0, scenario: 'fixtures/simulator/demo.yml' });
  aa = await startSimulator({ port: 0, scenario: 'fixtures/simulator/aa.yml' });
});
afterAll(async () => {
  await demo.close();
  await aa.close();
});

async function runAction(simulator: RunningSimulator, candidate: string): Promise<ActionRun> {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-action-'));
  const summaryFile = path.join(dir, 'summary.md');
  const outputFile = path.join(dir, 'output.txt');
  const eventFile = path.join(dir, 'event.json');
  writeFileSync(summaryFile, '');
  writeFileSync(outputFile, '');
  writeFileSync(
    eventFile,
    JSON.stringify({ pull_request: { number: 7 }, repository: { full_name: 'octo/models' } }),
  );
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_OUTPUT: outputFile,
    GITHUB_EVENT_NAME: 'pull_request',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'octo/models',
    GITHUB_RUN_ID: '42',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SERVER_URL: 'http://127.0.0.1:9',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    INPUT_CONFIG: 'fixtures/demo/model-gate.yml',
    INPUT_BASELINE: 'demo-base:1b',
    INPUT_CANDIDATE: candidate,
    INPUT_CHECKS: 'churn',
    'INPUT_OLLAMA-HOST': simulator.url,
    'INPUT_OUTPUT-DIR': path.join(dir, 'out'),
    INPUT_COMMENT: 'false',
    'INPUT_COMMENT-HEADER': 'default',
    'INPUT_ARTIFACT-NAME': 'model-gate',
    'INPUT_GITHUB-TOKEN': '',
    'INPUT_FAIL-ON': 'regression',
  };
  const child = spawn(process.execPath, ['dist/index.js'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    stdout += d.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return {
    code,
    stdout,
    summary: readFileSync(summaryFile, 'utf8'),
    outputs: parseOutputs(readFileSync(outputFile, 'utf8')),
  };
}

describe('the bundled action, as the runner runs it', () => {
  it('fails the step on the regression scenario, after publishing the summary and outputs', async () => {
    const run = await runAction(demo, 'demo-cand:1b');
    expect(run.code).toBe(1);
    expect(run.summary).toContain('model-gate verdict: fail');
    expect(run.summary).toContain('law');
    expect(run.outputs.verdict).toBe('fail');
    expect(Number(run.outputs.deteriorated)).toBeGreaterThanOrEqual(3);
    expect(run.outputs.reversals).toContain('law');
    expect(run.outputs['report-path']).toMatch(/report\.json$/);
    expect(
      JSON.parse(readFileSync(run.outputs['report-path'] as string, 'utf8')).verdict.status,
    ).toBe('fail');
    // The failed state comes last, after everything was published.
    const failedAt = run.stdout.indexOf('::error::');
    expect(failedAt).toBeGreaterThan(-1);
    expect(run.stdout.indexOf('model-gate: publish')).toBeLessThan(failedAt);
    expect(run.stdout).toContain('law: ');
  });

  it('passes on identical models (A/A)', async () => {
    const run = await runAction(aa, 'demo-twin:1b');
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('pass');
    expect(run.outputs.deteriorated).toBe('0');
    expect(run.summary).toContain('model-gate verdict: pass');
    expect(run.stdout).not.toContain('::error::');
  });

  it('reports bad inputs with exit 1 and one message naming the input', async () => {
    const child = spawn(process.execPath, ['dist/index.js'], {
      env: {
        PATH: process.env.PATH,
        INPUT_CONFIG: 'fixtures/demo/model-gate.yml',
        INPUT_SAMPLES: '-1',
        INPUT_SHARD: '3/2',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(1);
    expect(stdout).toContain("input 'shard'");
    expect(stdout).toContain("churn.samples (from input 'samples')");
    expect(stdout).not.toMatch(/\n\s+at /);
  });
});

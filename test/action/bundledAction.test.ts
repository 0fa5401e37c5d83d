/**
 * The committed bundle, run the way the runner runs it: `node dist/index.js` with INPUT_*
 * variables, GITHUB_STEP_SUMMARY, GITHUB_OUTPUT and an event payload, against the simulator.
 * (CI rebuilds dist/ and fails when it differs, so this exercises the code under review.)
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type ActionRun, runBundledAction } from '../support/actionRun.js';
import { builtInItemsScenario, instantScenario } from '../support/instantScenario.js';

let demo: RunningSimulator;
let aa: RunningSimulator;
let knowing: RunningSimulator;

beforeAll(async () => {
  // Timing is not this file's subject: the models answer without their scripted latency.
  demo = await startSimulator({
    port: 0,
    scenario: instantScenario('fixtures/simulator/demo.yml'),
  });
  aa = await startSimulator({ port: 0, scenario: instantScenario('fixtures/simulator/aa.yml') });
  knowing = await startSimulator({ port: 0, scenario: builtInItemsScenario() });
});
afterAll(async () => {
  await demo.close();
  await aa.close();
  await knowing.close();
});

function runAction(simulator: RunningSimulator, candidate: string): Promise<ActionRun> {
  return runBundledAction({
    event: { pull_request: { number: 7 }, repository: { full_name: 'octo/models' } },
    env: ({ dir }) => ({
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
    }),
  });
}

describe('the bundled action, as the runner runs it', () => {
  it('fails the step on the regression scenario, after publishing the summary and outputs', async () => {
    const run = await runAction(demo, 'demo-cand:1b');
    expect(run.code).toBe(1);
    expect(run.summary).toContain('model-gate verdict: fail');
    expect(run.summary).toContain('law');
    expect(run.outputs.verdict).toBe('fail');
    // Law items Fisher + BH flags among the demo's 75 items (its 12 open items do not move).
    expect(Number(run.outputs.deteriorated)).toBeGreaterThanOrEqual(2);
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

  it('runs all three checks on the built-in defaults with only the baseline and candidate inputs, in a workspace without a config', async () => {
    // A workspace outside this repository: no model-gate.yml, no fixtures. The server comes
    // from OLLAMA_HOST, as on a runner beside its Ollama server.
    const workspace = mkdtempSync(path.join(tmpdir(), 'model-gate-workspace-'));
    const run = await runBundledAction({
      cwd: workspace,
      event: { pull_request: { number: 7 }, repository: { full_name: 'octo/models' } },
      env: () => ({
        GITHUB_REPOSITORY: 'octo/models',
        GITHUB_RUN_ID: '43',
        GITHUB_RUN_ATTEMPT: '1',
        OLLAMA_HOST: knowing.url,
        INPUT_BASELINE: 'demo-base:1b',
        INPUT_CANDIDATE: 'demo-twin:1b',
      }),
    });
    expect(run.stdout).not.toContain('::error::');
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('pass');
    const report = JSON.parse(readFileSync(run.outputs['report-path'] as string, 'utf8'));
    expect(path.dirname(run.outputs['report-path'] as string)).toBe(
      path.join(realpathSync(workspace), 'model-gate-out'),
    );
    expect(Object.keys(report.checks)).toEqual(['churn', 'dragon', 'personas']);
    // The built-in items and catalogue, read from the action's own folder.
    expect(report.run.config.churn.items).toBe('fixtures/items/general.yml');
    expect(report.checks.churn.itemCounts.total).toBe(63);
    expect(report.checks.dragon.seeds).toHaveLength(10);
    expect(report.checks.personas.catalogue.file).toBe('fixtures/personas/catalogue.yml');
    expect(report.checks.personas.catalogue.assistants).toHaveLength(6);
    expect(run.outputs['persona-accuracy']).not.toBe('');
    expect(run.outputs['ece-candidate']).not.toBe('');
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

/**
 * The nightly workflow (docs/workflows/nightly-calibration.yml, cache variant) run twice in a
 * row against the simulator: its own shell steps write the config and keep the report, the
 * action's run() measures, and the cache steps are played by copying .model-gate-nightly
 * between two fresh workspaces. The second night must read the first night's history and
 * report and append to them.
 *
 * Two deviations from the real job, to keep the test short: each night plays 2 maze games
 * instead of 30, and the action gets the simulator's address and 4 parallel requests. The
 * clock reads 03:00 UTC of night n (the history keeps one line per night), and the runner's
 * artifact service is a fake on loopback that the upload reaches.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { run } from '../../src/main.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type FakeResultsService, startFakeResultsService } from '../github/fakeResultsService.js';
import { parseOutputs } from '../support/actionRun.js';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
}

const workflow = parse(
  readFileSync(new URL('../../docs/workflows/nightly-calibration.yml', import.meta.url), 'utf8'),
) as { env: Record<string, string>; jobs: { calibration: { steps: Step[] } } };
const steps = workflow.jobs.calibration.steps;
const script = (name: string): string => {
  const step = steps.find((s) => s.name === name);
  if (!step?.run) throw new Error(`no step "${name}" in the nightly workflow`);
  return step.run;
};

let simulator: RunningSimulator;
/** The runner's artifact storage: the upload succeeds, and the test reads what it held. */
let artifacts: FakeResultsService;
let root: string;
const home = process.cwd();

beforeAll(async () => {
  simulator = await startSimulator({
    port: 0,
    scenario: path.resolve('fixtures/simulator/demo.yml'),
  });
  artifacts = await startFakeResultsService();
  root = mkdtempSync(path.join(tmpdir(), 'model-gate-nightly-'));
});
afterAll(async () => {
  process.chdir(home);
  vi.unstubAllEnvs();
  await simulator.close();
  await artifacts.close();
});

function outputsOf(file: string): Record<string, string> {
  return parseOutputs(readFileSync(file, 'utf8'));
}

/** One night on a fresh runner workspace; `cache` plays actions/cache between nights. */
async function night(n: number, cache: string) {
  const workspace = path.join(root, `night-${n}`);
  mkdirSync(workspace, { recursive: true });
  const carried = path.join(workspace, '.model-gate-nightly');
  if (existsSync(cache)) cpSync(cache, carried, { recursive: true }); // cache/restore
  const shell = (text: string, env: Record<string, string> = {}) =>
    // The runner's own shell line for `run:` steps: no profile, no rc file.
    execFileSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', text], {
      cwd: workspace,
      env: {
        PATH: process.env.PATH,
        HOME: root,
        ...workflow.env,
        PRODUCTION_MODEL: 'demo-base:1b',
        HISTORY_BRANCH: '',
        ...env,
      },
      encoding: 'utf8',
    });
  shell(script("Write tonight's config"));
  const configFile = path.join(workspace, 'model-gate.nightly.yml');
  const config = readFileSync(configFile, 'utf8');
  writeFileSync(configFile, config.replace('seeds: "0-29"', 'seeds: "0-1"'));

  // @actions/core remembers the summary file of its first use: one file, emptied per night.
  const summary = path.join(root, 'step-summary.md');
  const output = path.join(root, 'github-output.txt');
  writeFileSync(summary, '');
  writeFileSync(output, '');
  const env: Record<string, string> = {
    GITHUB_ACTIONS: 'true',
    GITHUB_STEP_SUMMARY: summary,
    GITHUB_OUTPUT: output,
    GITHUB_EVENT_NAME: 'schedule',
    GITHUB_REPOSITORY: 'octo/models',
    GITHUB_RUN_ID: String(100 + n),
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_SHA: `${n}`.repeat(40),
    // github.com, not an Enterprise Server, where the artifact service is not supported.
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'http://127.0.0.1:9',
    ACTIONS_RUNTIME_TOKEN: artifacts.token,
    ACTIONS_RESULTS_URL: `${artifacts.url}/`,
    INPUT_CONFIG: 'model-gate.nightly.yml',
    INPUT_CHECKS: 'dragon',
    INPUT_COMMENT: 'false',
    'INPUT_COMMENT-HEADER': 'default',
    'INPUT_FAIL-ON': 'inconclusive',
    'INPUT_ARTIFACT-NAME': 'model-gate-nightly',
    'INPUT_GITHUB-TOKEN': '',
    'INPUT_OLLAMA-HOST': simulator.url,
    INPUT_CONCURRENCY: '4',
  };
  for (const [key, value] of Object.entries(env)) vi.stubEnv(key, value);
  process.chdir(workspace);
  // Night n at 03:00 UTC: the history holds one line per night, so the nights need their dates.
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(new Date(Date.UTC(2026, 9, n, 3)));
  // The action's log (workflow commands on stdout) is read here, not printed among the tests.
  let log = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    log += String(chunk);
    return true;
  });
  try {
    await run();
  } finally {
    write.mockRestore();
    vi.useRealTimers();
    process.chdir(home);
    vi.unstubAllEnvs();
  }
  const failed = process.exitCode;
  process.exitCode = undefined;
  const outputs = outputsOf(output);
  shell(script("Keep tonight's report for tomorrow"), { REPORT: outputs['report-path'] ?? '' });
  cpSync(carried, cache, { recursive: true }); // cache/save (if: always())
  return {
    workspace,
    config,
    failed,
    log,
    outputs,
    summary: readFileSync(summary, 'utf8'),
    history: readFileSync(path.join(carried, 'history.jsonl'), 'utf8').trim().split('\n'),
    report: JSON.parse(readFileSync(outputs['report-path'] ?? '', 'utf8')),
  };
}

describe('the nightly workflow, two nights in a row', () => {
  it('carries the history and last night’s report from the first night to the second', {
    timeout: 240_000,
  }, async () => {
    const cache = path.join(root, 'cache');
    const first = await night(1, cache);
    expect(first.failed).toBeUndefined();
    expect(first.log).toContain('::group::model-gate: publish');
    expect(first.log).not.toContain('::warning::');
    expect(first.outputs.verdict).toBe('pass');
    expect(first.config).not.toContain('previous-report');
    expect(first.history).toHaveLength(1);
    expect(first.summary).toContain('Nightly history');
    expect(first.summary).toContain('1 night of this model');
    expect(first.summary).toContain('1 of the 7 nights the drift rule needs');

    const second = await night(2, cache);
    expect(second.failed).toBeUndefined();
    expect(second.config).toContain('previous-report: .model-gate-nightly/report.json');
    expect(second.history).toHaveLength(2);
    const lines = second.history.map((l) => JSON.parse(l));
    expect(lines.map((l) => l.commit)).toEqual(['1'.repeat(40), '2'.repeat(40)]);
    expect(lines.map((l) => l.model)).toEqual(['demo-base:1b', 'demo-base:1b']);
    expect(lines[1].ece.value).toBeCloseTo(lines[0].ece.value, 12);
    expect(lines[0].verdict).toBe('pass');
    expect(second.report.history.nights).toHaveLength(2);
    expect(second.report.history.appended).toBe(true);
    expect(second.summary).toContain('2 nights of this model');
    expect(second.summary).toContain('history-ece-trend.svg');
    expect(existsSync(path.join(second.workspace, 'model-gate-out', 'history-ece-trend.svg'))).toBe(
      true,
    );
    // Each night's artifact was uploaded, with the history in it.
    expect(first.outputs['artifact-url']).toMatch(/\/actions\/runs\/101\/artifacts\/\d+$/);
    const zip = artifacts.blobs.get('/blob/artifacts/model-gate-nightly-102-1.zip');
    expect(zip?.toString('latin1')).toContain('history.jsonl');
  });
});

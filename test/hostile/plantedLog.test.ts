/**
 * A sample log the run did not write is not a measurement of the run. A pull request that
 * committed `model-gate-out/samples.jsonl` (records copied from any run, or written by hand)
 * got PASS with zero requests, and neither the summary nor the comment said that nothing had
 * been measured. Now:
 * - a log that git tracks — the run's own log or the cache folder's — is planted: the run
 *   refuses it (exit 2) before anything is asked. A pull request can commit files; it cannot
 *   make git forget that it did. A log written on this machine (an interrupted run of the same
 *   job, a cache restored by actions/cache) is never tracked, and is resumed as before;
 * - every run says in its report, hence in the summary and the comment, how many of its units
 *   were already in the log when it started, and says it first when it asked nothing at all;
 * - `analyze` of a stored log, committed or not, works as before: it measures nothing, and
 *   says so itself.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { commentBody } from '../../src/github/comment.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { CHURN_SCENARIO, cli, smallRun, writeSmallConfig } from '../support/smallRun.js';

let simulator: RunningSimulator;
/** A complete log of the small run: every unit of the plan is in it. */
let fullLog: string;

beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-genuine-'));
  const run = await smallRun(writeSmallConfig(dir, simulator.url));
  expect([ExitCode.pass, ExitCode.regression], run.stderr).toContain(run.code);
  fullLog = path.join(dir, 'out', 'samples.jsonl');
});
afterAll(async () => {
  await simulator.close();
});

const asked = () => Object.values(simulator.stats().requests).reduce((a, b) => a + b, 0);

function git(dir: string, ...args: string[]): void {
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd: dir,
    stdio: 'ignore',
  });
}

/** A checkout (a git repository with one commit) holding `files` (relative path → source). */
function checkout(files: Record<string, string>): { dir: string; config: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-checkout-'));
  const config = writeSmallConfig(dir, simulator.url);
  for (const [name, source] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    copyFileSync(source, path.join(dir, name));
  }
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, 'commit', '-q', '-m', 'pull request');
  return { dir, config };
}

function report(dir: string): {
  verdict: { reasons: { rule: string; severity: string; message: string }[] };
} {
  return JSON.parse(readFileSync(path.join(dir, 'out', 'report.json'), 'utf8'));
}

describe('a log committed in the repository', () => {
  it('at the run log: refused (exit 2) before any request, naming the file', async () => {
    const { dir, config } = checkout({ 'out/samples.jsonl': fullLog });
    const before = asked();
    const run = await smallRun(config);
    expect(run.code, run.stderr).toBe(ExitCode.badInput);
    expect(run.stderr).toContain(
      `${path.join(dir, 'out', 'samples.jsonl')}: this sample log is committed in the repository`,
    );
    expect(run.stderr).toContain('model-gate analyze');
    expect(asked()).toBe(before);
  });

  it('in the cache folder: refused the same way', async () => {
    const { dir, config } = checkout({ 'cache/samples.jsonl': fullLog });
    const before = asked();
    const run = await smallRun(config, ['--cache-dir', path.join(dir, 'cache')]);
    expect(run.code, run.stderr).toBe(ExitCode.badInput);
    expect(run.stderr).toContain('committed in the repository');
    expect(asked()).toBe(before);
  });

  it('analyze of a committed log still reports on it', async () => {
    const { dir, config } = checkout({ 'stored/samples.jsonl': fullLog });
    const analysed = await cli([
      'analyze',
      '--log',
      path.join(dir, 'stored', 'samples.jsonl'),
      '--config',
      config,
      '--out',
      path.join(dir, 'out'),
    ]);
    expect([ExitCode.pass, ExitCode.regression], analysed.stderr).toContain(analysed.code);
  });
});

describe('a log written on this machine (resume, cache)', () => {
  it('resumed with nothing left to ask: accepted, and every output says nothing was measured by this run', async () => {
    // Untracked in a checkout: an earlier, interrupted run of the same job wrote it.
    const { dir, config } = checkout({});
    mkdirSync(path.join(dir, 'out'));
    copyFileSync(fullLog, path.join(dir, 'out', 'samples.jsonl'));
    const before = asked();
    const run = await smallRun(config);
    expect([ExitCode.pass, ExitCode.regression], run.stderr).toContain(run.code);
    expect(asked()).toBe(before);
    const said = report(dir).verdict.reasons.find((r) => r.rule === 'measured-before');
    expect(said?.message).toMatch(
      /^this run asked the models nothing: all \d+ units of the plan were in the sample log .*samples\.jsonl when it started/,
    );
    const summary = readFileSync(path.join(dir, 'out', 'summary.md'), 'utf8');
    expect(summary).toContain('this run asked the models nothing');
    // The pull-request comment is the summary, cut to fit: the statement is in its verdict table.
    expect(commentBody('<!-- model-gate -->', summary, 'cut')).toContain(
      'this run asked the models nothing',
    );
  });

  it('partly resumed: the share taken from the log is said', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-partial-'));
    const config = writeSmallConfig(dir, simulator.url);
    const lines = readFileSync(fullLog, 'utf8').split('\n').filter(Boolean);
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(
      path.join(dir, 'out', 'samples.jsonl'),
      `${lines.slice(0, Math.ceil(lines.length / 2)).join('\n')}\n`,
    );
    const run = await smallRun(config);
    expect([ExitCode.pass, ExitCode.regression], run.stderr).toContain(run.code);
    const said = report(dir).verdict.reasons.find((r) => r.rule === 'measured-before');
    expect(said?.severity).toBe('info');
    expect(said?.message).toMatch(
      /^\d+ of \d+ units were in the sample log .*samples\.jsonl when this run started/,
    );
  });

  it('a fresh run says nothing of the kind', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-fresh-'));
    const run = await smallRun(writeSmallConfig(dir, simulator.url));
    expect([ExitCode.pass, ExitCode.regression], run.stderr).toContain(run.code);
    expect(report(dir).verdict.reasons.map((r) => r.rule)).not.toContain('measured-before');
  });
});

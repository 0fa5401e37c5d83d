/**
 * The bundled action (`node dist/index.js`) on the runs that must never read as a pass: a
 * cancelled run, a shard, a server that cannot be reached. A fake GitHub API holds the sticky
 * comment, so what a reviewer would read on the pull request is checked too.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { type FakeGitHub, startFakeGitHub } from '../github/fakeGitHub.js';
import { type ActionRun, runBundledAction } from '../support/actionRun.js';
import { instantScenario } from '../support/instantScenario.js';

const HEAD_SHA = '0123456789abcdef0123456789abcdef01234567';
const MERGE_SHA = 'fedcba9876543210fedcba9876543210fedcba98';
const MARKER = '<!-- model-gate:default -->';

let demo: RunningSimulator;
let slow: RunningSimulator;
let github: FakeGitHub;

beforeAll(async () => {
  // Timing is not these tests' subject, except where the slow models below are asked.
  demo = await startSimulator({
    port: 0,
    scenario: instantScenario('fixtures/simulator/demo.yml'),
  });
  // The A/A models, slowed so a signal lands while the baseline is being measured.
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-slow-'));
  const scenario = path.join(dir, 'slow.yml');
  writeFileSync(
    scenario,
    readFileSync('fixtures/simulator/aa.yml', 'utf8').replace(/latency-ms: 2\b/g, 'latency-ms: 40'),
  );
  slow = await startSimulator({ port: 0, scenario });
  github = await startFakeGitHub('octo', 'models', 7);
});
afterAll(async () => {
  await demo.close();
  await slow.close();
  await github.close();
});

function runAction(
  host: string,
  inputs: Record<string, string>,
  during?: (child: ChildProcess, output: () => string) => void,
): Promise<ActionRun> {
  return runBundledAction({
    event: {
      pull_request: { number: 7, head: { sha: HEAD_SHA } },
      repository: { full_name: 'octo/models', name: 'models', owner: { login: 'octo' } },
    },
    env: ({ dir }) => ({
      GITHUB_REPOSITORY: 'octo/models',
      GITHUB_SHA: MERGE_SHA,
      GITHUB_RUN_ID: '42',
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_SERVER_URL: 'https://github.test',
      GITHUB_API_URL: github.url,
      INPUT_CONFIG: 'fixtures/demo/model-gate.yml',
      INPUT_BASELINE: 'demo-base:1b',
      INPUT_CANDIDATE: 'demo-cand:1b',
      INPUT_CHECKS: 'churn',
      'INPUT_OLLAMA-HOST': host,
      'INPUT_OUTPUT-DIR': path.join(dir, 'out'),
      INPUT_COMMENT: 'true',
      'INPUT_COMMENT-HEADER': 'default',
      'INPUT_ARTIFACT-NAME': 'model-gate',
      'INPUT_GITHUB-TOKEN': 'app',
      'INPUT_FAIL-ON': 'regression',
      INPUT_SAMPLES: '4',
      INPUT_CONCURRENCY: '1',
      ...Object.fromEntries(
        Object.entries(inputs).map(([k, v]) => [`INPUT_${k.toUpperCase()}`, v]),
      ),
    }),
    ...(during ? { during } : {}),
  });
}

/** The sticky comment the action keeps, after a run left "✅ pass" there. */
function stickyComment(): string {
  const mine = github.comments.filter((c) => c.body.includes(MARKER));
  expect(mine).toHaveLength(1);
  return mine[0]?.body ?? '';
}

function seedPassComment(): void {
  github.comments.length = 0;
  github.requests.length = 0;
  github.addComment(
    'github-actions[bot]',
    `${MARKER}\n## ✅ model-gate verdict: pass\n\nevery gate rule passed`,
  );
}

describe('the action never reads as a pass when the measurement is not whole', () => {
  it('cancelled (SIGINT) mid-run: inconclusive in the outputs, the summary and the comment', async () => {
    seedPassComment();
    const before = Object.values(slow.stats().requests).reduce((a, b) => a + b, 0);
    const run = await runAction(slow.url, { candidate: 'demo-twin:1b' }, (child) => {
      const timer = setInterval(() => {
        const sent = Object.values(slow.stats().requests).reduce((a, b) => a + b, 0) - before;
        if (sent >= 12) {
          clearInterval(timer);
          child.kill('SIGINT');
        }
      }, 20);
      child.on('close', () => clearInterval(timer));
    });
    expect(run.outputs.verdict).toBe('inconclusive');
    expect(run.outputs.incomplete).toContain('the run was interrupted');
    expect(run.outputs.incomplete).toContain('churn samples of demo-twin:1b (candidate)');
    // An interrupted run fails the step (unless fail-on: never), like a server that stopped.
    expect(run.code).toBe(1);
    const first = run.summary.split('\n').slice(0, 6).join('\n');
    expect(first).toContain('model-gate verdict: inconclusive');
    expect(first).toContain('Incomplete measurement');
    expect(first).toContain(HEAD_SHA.slice(0, 12));
    expect(first).toContain('https://github.test/octo/models/actions/runs/42');
    const comment = stickyComment();
    expect(comment).toContain('model-gate verdict: inconclusive');
    expect(comment).not.toContain('verdict: pass');
    expect(comment).toContain(HEAD_SHA.slice(0, 12));
    expect(comment).not.toContain(MERGE_SHA.slice(0, 12));
  });

  it('a shard is labelled "shard i/n measured", does not fail on its slice, and leaves the comment alone', async () => {
    seedPassComment();
    const run = await runAction(demo.url, { shard: '1/2' });
    // The demo candidate regresses; one slice of the plan decides nothing.
    expect(run.code).toBe(0);
    expect(run.outputs.verdict).toBe('shard 1/2 measured');
    expect(run.outputs.incomplete).toBe('');
    expect(run.summary.split('\n')[0]).toBe('## 🧩 model-gate: shard 1/2 measured');
    expect(run.summary).not.toContain('verdict: fail');
    expect(run.stdout).not.toContain('::error::');
    expect(run.stdout).toContain('shard 1/2 measured');
    expect(stickyComment()).toContain('verdict: pass');
    expect(github.requests.filter((r) => !r.startsWith('GET'))).toEqual([]);
  });

  it('a shard with a comment header of its own comments under it', async () => {
    seedPassComment();
    const run = await runAction(demo.url, { shard: '2/2', 'comment-header': 'shard-2' });
    expect(run.code).toBe(0);
    const own = github.comments.find((c) => c.body.includes('<!-- model-gate:shard-2 -->'));
    expect(own?.body).toContain('shard 2/2 measured');
    expect(stickyComment()).toContain('verdict: pass');
  });

  it('a server that cannot be reached replaces the previous verdict in the comment', async () => {
    seedPassComment();
    const run = await runAction('http://127.0.0.1:9', {});
    expect(run.code).toBe(1);
    expect(run.outputs.verdict).toBe('inconclusive');
    expect(run.outputs.incomplete).toContain('nothing was measured');
    const comment = stickyComment();
    expect(comment).toContain('model-gate: could not measure');
    expect(comment).not.toContain('verdict: pass');
    expect(comment).toContain(HEAD_SHA.slice(0, 12));
    expect(comment).toContain('https://github.test/octo/models/actions/runs/42');
    expect(run.summary).toContain('could not measure');
    expect(run.summary).toContain(HEAD_SHA.slice(0, 12));
  });
});

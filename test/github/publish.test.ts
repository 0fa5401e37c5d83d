import { readFile, rm, stat, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getOctokit } from '@actions/github';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ArtifactUploader } from '../../src/github/artifacts.js';
import type { ActionLog } from '../../src/github/log.js';
import { publish } from '../../src/github/publish.js';
import { runLocation } from '../../src/github/runLocation.js';
import { writeReport } from '../../src/report/write.js';
import { constructedReport } from '../report/fixtures.js';
import { type FakeGitHub, startFakeGitHub } from './fakeGitHub.js';
import { FakeUploader } from './fakeUploader.js';

const RUN = runLocation({
  GITHUB_REPOSITORY: 'acme/models',
  GITHUB_RUN_ID: '77',
  GITHUB_RUN_ATTEMPT: '1',
});
const TARGET = { owner: 'acme', repo: 'models', issueNumber: 7 };

let dir: string;
let github: FakeGitHub;
const stepSummary = () => join(dir, 'step_summary');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'model-gate-publish-'));
  await writeFile(stepSummary(), '');
  process.env.GITHUB_STEP_SUMMARY = stepSummary();
  github = await startFakeGitHub(TARGET.owner, TARGET.repo, TARGET.issueNumber);
});
afterAll(async () => {
  delete process.env.GITHUB_STEP_SUMMARY;
  await github.close();
  await rm(dir, { recursive: true, force: true });
});

function recorder() {
  const events: string[] = [];
  const log: ActionLog = {
    info: (m) => events.push(`info: ${m}`),
    notice: (m) => events.push(`notice: ${m}`),
    warning: (m) => events.push(`warning: ${m}`),
  };
  const outputs: Record<string, string> = {};
  const setOutput = (name: string, value: string) => {
    events.push(`output ${name}`);
    outputs[name] = value;
  };
  return { events, log, outputs, setOutput };
}

describe('publish', () => {
  it('writes the job summary, then the comment, then the artifact, then the outputs', async () => {
    const report = constructedReport();
    const written = await writeReport(report, join(dir, 'out'));
    const log = join(dir, 'samples.jsonl');
    await writeFile(log, '{}\n');
    const { events, log: actionLog, outputs, setOutput } = recorder();
    const seenAtUpload: { summaryBytes: number; comments: number }[] = [];
    const inner = new FakeUploader();
    const uploader: ArtifactUploader = {
      async upload(name, files, root) {
        seenAtUpload.push({
          summaryBytes: (await stat(stepSummary())).size,
          comments: github.comments.length,
        });
        events.push('artifact');
        return inner.upload(name, files, root);
      },
    };

    const result = await publish(
      report,
      { ...written, logs: [log] },
      {
        comment: {
          enabled: true,
          header: 'default',
          octokit: getOctokit('app', { baseUrl: github.url }),
          target: TARGET,
        },
        artifact: { baseName: 'model-gate', uploader },
        run: RUN,
        log: actionLog,
        setOutput,
      },
    );

    expect(result.jobSummary.status).toBe('done');
    expect(result.comment.status).toBe('done');
    expect(result.artifact).toMatchObject({ status: 'done', name: 'model-gate-77-1' });
    expect(result.outputs.status).toBe('done');
    // The summary and the comment existed when the artifact was uploaded; outputs came last.
    expect(seenAtUpload[0]?.summaryBytes).toBeGreaterThan(0);
    expect(seenAtUpload[0]?.comments).toBe(1);
    expect(events.indexOf('artifact')).toBeLessThan(events.indexOf('output verdict'));
    expect(outputs['artifact-url']).toBe(
      'https://github.com/acme/models/actions/runs/77/artifacts/4242',
    );
    expect(outputs.verdict).toBe('fail');

    const summaryText = await readFile(stepSummary(), 'utf8');
    expect(summaryText.startsWith('## ❌ model-gate verdict: fail')).toBe(true);
    expect(github.comments[0]?.body).toContain('## ❌ model-gate verdict: fail');
    expect(inner.uploads[0]?.files.sort()).toEqual(
      [written.report, written.summary, written.page, ...written.charts, log].sort(),
    );
    // Once uploaded, the summary and the comment point at the artifact that holds report.html.
    const artifact = 'https://github.com/acme/models/actions/runs/77/artifacts/4242';
    const pageLine = `report.html in the [artifact of this run](${artifact})`;
    expect(summaryText).toContain(pageLine);
    expect(summaryText.match(/## ❌ model-gate verdict/g)).toHaveLength(1);
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body).toContain(pageLine);
  });

  it('fails soft: a fork token and a broken upload leave warnings, and the outputs are still set', async () => {
    const { events, log, outputs, setOutput } = recorder();
    const result = await publish(
      constructedReport(),
      { report: '/r.json', summary: '/s.md', charts: [], logs: [] },
      {
        comment: {
          enabled: true,
          header: 'fork',
          octokit: getOctokit('readonly', { baseUrl: github.url }),
          target: TARGET,
        },
        artifact: {
          baseName: 'model-gate',
          uploader: {
            upload: () => Promise.reject(new Error('Artifact storage quota has been hit')),
          },
        },
        run: RUN,
        log,
        setOutput,
      },
    );
    expect(result.comment.status).toBe('skipped');
    expect(result.artifact).toMatchObject({ status: 'failed', url: null });
    expect(result.outputs.status).toBe('done');
    expect(outputs['artifact-url']).toBe('');
    expect(events.filter((e) => e.startsWith('warning:'))).toEqual([
      expect.stringMatching(/read-only token/),
      expect.stringMatching(/artifact could not be uploaded: Artifact storage quota/),
    ]);
  });
});

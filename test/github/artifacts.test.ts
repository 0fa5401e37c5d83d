import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GitHubArtifactUploader,
  artifactName,
  commonDirectory,
  uploadRunArtifact,
} from '../../src/github/artifacts.js';
import { runLocation } from '../../src/github/runLocation.js';
import { startFakeResultsService } from './fakeResultsService.js';
import { FakeUploader } from './fakeUploader.js';

const ENV = {
  GITHUB_SERVER_URL: 'https://github.example.com/',
  GITHUB_REPOSITORY: 'acme/models',
  GITHUB_RUN_ID: '987654',
  GITHUB_RUN_ATTEMPT: '2',
};

describe('artifact upload', () => {
  it('names the artifact per run attempt and links to it', async () => {
    const run = runLocation(ENV);
    const uploader = new FakeUploader();
    const result = await uploadRunArtifact(uploader, {
      baseName: 'model-gate',
      files: [
        '/w/out/report.json',
        '/w/out/summary.md',
        '/w/out/reliability-baseline.svg',
        '/w/logs/samples.jsonl',
      ],
      run,
    });
    expect(result).toEqual({
      name: 'model-gate-987654-2',
      id: 4242,
      url: 'https://github.example.com/acme/models/actions/runs/987654/artifacts/4242',
    });
    expect(uploader.uploads[0]?.rootDirectory).toBe('/w');
  });

  it('works outside Actions without a URL, and without one when the service gives no id', async () => {
    const local = await uploadRunArtifact(new FakeUploader(), {
      baseName: 'x',
      files: ['a.json'],
      run: null,
    });
    expect(local).toMatchObject({ name: 'x', url: null });
    const noId = await uploadRunArtifact(new FakeUploader(null), {
      baseName: 'x',
      files: ['a.json'],
      run: runLocation(ENV),
    });
    expect(noId.url).toBeNull();
  });

  it('replaces characters artifact names may not hold', () => {
    expect(artifactName('gate: "nightly"/dragon', runLocation(ENV))).toBe(
      'gate- -nightly--dragon-987654-2',
    );
    expect(artifactName('  ', null)).toBe('model-gate');
  });

  it('finds the deepest common folder', () => {
    expect(commonDirectory(['/a/b/c/x.json', '/a/b/c/y.svg'])).toBe('/a/b/c');
    expect(commonDirectory(['/a/b/c/x.json', '/a/b/d/e/y.svg'])).toBe('/a/b');
    expect(commonDirectory(['/a/x', '/b/y'])).toBe('/');
    expect(commonDirectory(['rel/x.json'])).toBe(join(resolve('.'), 'rel'));
  });

  it('the real uploader is @actions/artifact, which refuses to run without the runner token', async () => {
    const saved = process.env.ACTIONS_RUNTIME_TOKEN;
    delete process.env.ACTIONS_RUNTIME_TOKEN;
    try {
      await expect(
        new GitHubArtifactUploader().upload('x', [resolve('package.json')], resolve('.')),
      ).rejects.toThrow(/ACTIONS_RUNTIME_TOKEN/);
    } finally {
      if (saved !== undefined) process.env.ACTIONS_RUNTIME_TOKEN = saved;
    }
  });

  it('reads the run from the runner variables, attempt 1 by default', () => {
    expect(runLocation({})).toBeNull();
    expect(runLocation({ GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '5' })).toEqual({
      serverUrl: 'https://github.com',
      repository: 'o/r',
      runId: '5',
      runAttempt: '1',
    });
  });
});

describe('the real uploader (@actions/artifact) against a fake results service', () => {
  it('zips the files relative to their common folder and returns the id and URL', async () => {
    const service = await startFakeResultsService();
    const dir = await mkdtemp(join(tmpdir(), 'model-gate-artifact-'));
    const names = ['ACTIONS_RUNTIME_TOKEN', 'ACTIONS_RESULTS_URL', 'GITHUB_SERVER_URL'] as const;
    const saved = names.map((name) => [name, process.env[name]] as const);
    try {
      process.env.ACTIONS_RUNTIME_TOKEN = service.token;
      process.env.ACTIONS_RESULTS_URL = `${service.url}/`;
      process.env.GITHUB_SERVER_URL = 'https://github.com';
      await mkdir(join(dir, 'out'));
      await writeFile(join(dir, 'out', 'report.json'), '{"schema":"model-gate.report/1"}\n');
      await writeFile(join(dir, 'out', 'summary.md'), '## verdict\n');
      await writeFile(join(dir, 'samples.jsonl'), '{}\n');

      const result = await uploadRunArtifact(new GitHubArtifactUploader(), {
        baseName: 'model-gate',
        files: [
          join(dir, 'out', 'report.json'),
          join(dir, 'out', 'summary.md'),
          join(dir, 'samples.jsonl'),
        ],
        run: runLocation(ENV),
      });

      expect(result).toEqual({
        name: 'model-gate-987654-2',
        id: 31337,
        url: 'https://github.example.com/acme/models/actions/runs/987654/artifacts/31337',
      });
      expect(service.calls.map((c) => c.method)).toEqual(['CreateArtifact', 'FinalizeArtifact']);
      expect(service.calls[0]?.body).toMatchObject({
        name: 'model-gate-987654-2',
        workflow_run_backend_id: 'run-backend-1',
        workflow_job_run_backend_id: 'job-backend-2',
      });
      const zip = service.blobs.get('/blob/artifacts/model-gate-987654-2.zip');
      expect(zip?.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
      // Zip entries carry their paths in clear: relative to the common folder.
      const text = zip?.toString('latin1') ?? '';
      for (const entry of ['out/report.json', 'out/summary.md', 'samples.jsonl']) {
        expect(text).toContain(entry);
      }
      expect(text).not.toContain(dir.slice(1));
    } finally {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await service.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/**
 * A pull request controls the workspace of a self-hosted runner: it can commit a symbolic link
 * where model-gate writes a file (`model-gate-out/summary.md → ~/.bashrc`). No such link may
 * make the runner write outside the output folder: every file is written beside its place and
 * renamed there (the link replaced, never followed), and the files model-gate appends to (the
 * sample log, the history) refuse a link with a message.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/files/safeWrite.js';
import { startGpuSampler } from '../../src/gpu/sampler.js';
import { recordNight, readHistory } from '../../src/history/file.js';
import { lockSampleLog } from '../../src/sampleLog/lock.js';
import { pruneLog } from '../../src/sampleLog/prune.js';
import { type RunningSimulator, startSimulator } from '../../src/simulator/server.js';
import { CHURN_SCENARIO, smallRun, writeSmallConfig } from '../support/smallRun.js';

const PRECIOUS = 'precious: must never change\n';

let simulator: RunningSimulator;
beforeAll(async () => {
  simulator = await startSimulator({ port: 0, scenario: CHURN_SCENARIO });
});
afterAll(async () => {
  await simulator.close();
});

/** A folder outside the output folder, holding a file the attacker wants overwritten. */
function victim(): { dir: string; file: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-victim-'));
  const file = path.join(dir, 'bashrc');
  writeFileSync(file, PRECIOUS);
  return { dir, file };
}

function workspace(): string {
  return mkdtempSync(path.join(tmpdir(), 'model-gate-links-'));
}

/** Every file of `dir`, recursively, with its content: what a run may not have changed. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const file = path.join(dir, name);
    if (lstatSync(file).isFile()) out[name] = readFileSync(file, 'utf8');
  }
  return out;
}

describe('links planted in the output folder', () => {
  it('are replaced by the report files, and the files they point to stay as they were', async () => {
    const target = victim();
    const dir = workspace();
    const out = path.join(dir, 'out');
    mkdirSync(out);
    const planted = ['report.json', 'summary.md', 'churn-domains.svg', 'gpu.csv'];
    for (const name of planted) symlinkSync(target.file, path.join(out, name));
    // A dangling link where a chart goes: following it would create a file outside.
    symlinkSync(path.join(target.dir, 'created-by-run'), path.join(out, 'churn-changes.svg'));
    const before = snapshot(target.dir);

    const run = await smallRun(writeSmallConfig(dir, simulator.url));
    expect(run.stderr).not.toContain('internal error');
    expect([ExitCode.pass, ExitCode.regression, ExitCode.infrastructure]).toContain(run.code);
    expect(snapshot(target.dir)).toEqual(before);
    for (const name of ['report.json', 'summary.md']) {
      expect(lstatSync(path.join(out, name)).isSymbolicLink(), name).toBe(false);
    }
    expect(JSON.parse(readFileSync(path.join(out, 'report.json'), 'utf8')).schema).toMatch(
      /^model-gate/,
    );
    // No temporary file is left behind.
    expect(readdirSync(out).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('at the sample log: refused with a message (exit 2), nothing written through it', async () => {
    const target = victim();
    const dir = workspace();
    mkdirSync(path.join(dir, 'out'));
    symlinkSync(target.file, path.join(dir, 'out', 'samples.jsonl'));
    const empty = path.join(target.dir, 'empty.jsonl');
    writeFileSync(empty, '');
    const before = snapshot(target.dir);

    const run = await smallRun(writeSmallConfig(dir, simulator.url));
    expect(run.code).toBe(ExitCode.badInput);
    expect(run.stderr).toContain('is a symbolic link; model-gate does not follow it');
    expect(run.stderr).toContain(path.join(dir, 'out', 'samples.jsonl'));
    expect(snapshot(target.dir)).toEqual(before);

    // An empty file looks like a fresh log: the link to it is refused all the same.
    const second = workspace();
    mkdirSync(path.join(second, 'out'));
    symlinkSync(empty, path.join(second, 'out', 'samples.jsonl'));
    expect((await smallRun(writeSmallConfig(second, simulator.url))).code).toBe(ExitCode.badInput);
    expect(readFileSync(empty, 'utf8')).toBe('');
  });

  it('at the lock: taken as no lock at all, the link removed, its target untouched', () => {
    const target = victim();
    const dir = workspace();
    const log = path.join(dir, 'samples.jsonl');
    symlinkSync(target.file, `${log}.lock`);
    const lock = lockSampleLog(log);
    expect(lstatSync(lock.path).isSymbolicLink()).toBe(false);
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(readFileSync(target.file, 'utf8')).toBe(PRECIOUS);
  });

  it('at a lock pointing to an endless device: not read, not followed', () => {
    const dir = workspace();
    const log = path.join(dir, 'samples.jsonl');
    symlinkSync('/dev/zero', `${log}.lock`);
    const lock = lockSampleLog(log);
    expect(lstatSync(lock.path).isFile()).toBe(true);
    lock.release();
  });
});

describe('links planted in the cache and history', () => {
  it('the pruned cache replaces a link at its place; the old fixed temporary name is harmless', async () => {
    const target = victim();
    const dir = workspace();
    const log = path.join(dir, 'samples.jsonl');
    writeFileSync(log, '');
    const cache = path.join(dir, 'cache');
    mkdirSync(cache);
    symlinkSync(target.file, path.join(cache, 'samples.jsonl'));
    symlinkSync(target.file, path.join(cache, 'samples.jsonl.pruning'));
    await pruneLog(log, path.join(cache, 'samples.jsonl'), ['m:1b']);
    expect(lstatSync(path.join(cache, 'samples.jsonl')).isSymbolicLink()).toBe(false);
    expect(readFileSync(target.file, 'utf8')).toBe(PRECIOUS);
  });

  it('a history that is a link is refused before anything is measured', async () => {
    const target = victim();
    const dir = workspace();
    const history = path.join(dir, 'history.jsonl');
    symlinkSync(target.file, history);
    await expect(readHistory(history, CHECKS)).rejects.toThrow('is a symbolic link');
    await expect(
      recordNight(history, {} as Parameters<typeof recordNight>[1], CHECKS),
    ).rejects.toThrow('is a symbolic link');
    expect(readFileSync(target.file, 'utf8')).toBe(PRECIOUS);
  });

  it('gpu.csv replaces a link at its place when the sampler stops', async () => {
    const target = victim();
    const dir = workspace();
    const csvPath = path.join(dir, 'gpu.csv');
    symlinkSync(target.file, csvPath);
    const fake = path.resolve('test/fixtures/nvidia-smi/fake');
    const env = {
      ...process.env,
      PATH: `${fake}${path.delimiter}${process.env.PATH ?? ''}`,
      FAKE_NVIDIA_SMI_STATE: mkdtempSync(path.join(tmpdir(), 'fake-smi-')),
    };
    const sampler = await startGpuSampler({ intervalS: 0.05, csvPath, models: ['m:1b'], env });
    sampler.mark('m:1b');
    for (let waited = 0; sampler.samples() < 1 && waited < 20_000; waited += 50) await sleep(50);
    sampler.mark(null);
    await sampler.stop();
    expect(lstatSync(csvPath).isSymbolicLink()).toBe(false);
    expect(readFileSync(csvPath, 'utf8')).toMatch(/^time,series,gpu/);
    expect(readFileSync(target.file, 'utf8')).toBe(PRECIOUS);
  });

  it('the shared writer never writes through a link, dangling or not', () => {
    const target = victim();
    const dir = workspace();
    const dangling = path.join(target.dir, 'would-be-created');
    symlinkSync(target.file, path.join(dir, 'a.html'));
    symlinkSync(dangling, path.join(dir, 'b.html'));
    writeFileAtomic(path.join(dir, 'a.html'), '<p>a</p>');
    writeFileAtomic(path.join(dir, 'b.html'), '<p>b</p>');
    expect(readFileSync(path.join(dir, 'a.html'), 'utf8')).toBe('<p>a</p>');
    expect(readFileSync(target.file, 'utf8')).toBe(PRECIOUS);
    expect(existsSync(dangling)).toBe(false);
  });
});

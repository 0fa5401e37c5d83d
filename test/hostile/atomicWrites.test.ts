/**
 * A full disk while model-gate writes must leave the previous file whole: report.json was
 * written in place, so a disk that filled half-way left a truncated, invalid report where the
 * last good one had been. The disk is filled here by a failing `write` (ENOSPC after a few
 * bytes), injected into node:fs for this file only: it runs anywhere, without root or tmpfs.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ExitCode, InfrastructureError } from '../../src/errors.js';
import { writeFileAtomic } from '../../src/files/safeWrite.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { recordNight } from '../../src/history/file.js';
import { writeReport } from '../../src/report/write.js';
import { pruneLog } from '../../src/sampleLog/prune.js';
import { constructedReport } from '../report/fixtures.js';
import { churnRecord } from '../sampleLog/records.js';

/** Once `armed`, a write fails with ENOSPC after `room` more bytes reached the disk. */
const disk = vi.hoisted(() => ({ armed: false, room: 0 }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const writeSync = ((fd: number, buffer: Uint8Array | string, ...rest: unknown[]) => {
    if (!disk.armed) return (fs.writeSync as (...a: unknown[]) => number)(fd, buffer, ...rest);
    const offset = typeof rest[0] === 'number' ? rest[0] : 0;
    const wanted =
      typeof rest[1] === 'number'
        ? rest[1]
        : (typeof buffer === 'string' ? Buffer.byteLength(buffer) : buffer.length) - offset;
    if (disk.room <= 0) {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
    const part = Math.min(wanted, disk.room);
    disk.room -= part;
    const bytes = typeof buffer === 'string' ? Buffer.from(buffer) : buffer;
    return fs.writeSync(fd, bytes, offset, part);
  }) as typeof fs.writeSync;
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

// The same disk for a writer that goes through the promise API (as report.json's once did):
// the bytes that fit are written, then ENOSPC.
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const writeFile = (async (
    file: Parameters<typeof fs.writeFile>[0],
    data: unknown,
    ...rest: unknown[]
  ) => {
    if (!disk.armed)
      return (fs.writeFile as (...a: unknown[]) => Promise<void>)(file, data, ...rest);
    const bytes = Buffer.from(String(data));
    const part = bytes.subarray(0, Math.max(0, disk.room));
    disk.room -= part.length;
    await fs.writeFile(file, part);
    if (part.length < bytes.length) {
      throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    }
  }) as typeof fs.writeFile;
  return { ...fs, default: { ...fs, writeFile }, writeFile };
});

afterEach(() => {
  disk.armed = false;
});

function fillDiskAfter(bytes: number): void {
  disk.armed = true;
  disk.room = bytes;
}

function folder(): string {
  return mkdtempSync(path.join(tmpdir(), 'model-gate-full-'));
}

describe('a full disk', () => {
  it('while report.json is written: exit 3, the previous report and summary stay whole', async () => {
    const dir = folder();
    await writeReport(constructedReport(), dir);
    const before = {
      report: readFileSync(path.join(dir, 'report.json'), 'utf8'),
      summary: readFileSync(path.join(dir, 'summary.md'), 'utf8'),
    };
    fillDiskAfter(100);
    let error: unknown = null;
    try {
      await writeReport(constructedReport([]), dir);
    } catch (thrown) {
      error = thrown;
    }
    expect(error).toBeInstanceOf(InfrastructureError);
    expect((error as InfrastructureError).exitCode).toBe(ExitCode.infrastructure);
    expect((error as Error).message).toContain('no space left on device');
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe(before.report);
    expect(JSON.parse(before.report).verdict.status).toBe('fail');
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(before.summary);
    // Nothing half-written is left beside them.
    expect(readdirSync(dir).sort()).toEqual(
      [
        'report.html',
        'report.json',
        'summary.md',
        ...readdirSync(dir).filter((f) => f.endsWith('.svg')),
      ].sort(),
    );
  });

  it('while summary.md is written, after report.json: each file is whole, old or new', async () => {
    const dir = folder();
    await writeReport(constructedReport(), dir);
    const summary = readFileSync(path.join(dir, 'summary.md'), 'utf8');
    const report = readFileSync(path.join(dir, 'report.json'), 'utf8');
    fillDiskAfter(Buffer.byteLength(report) + 10);
    await expect(writeReport(constructedReport(), dir)).rejects.toThrow('no space left');
    expect(readFileSync(path.join(dir, 'report.json'), 'utf8')).toBe(report);
    expect(readFileSync(path.join(dir, 'summary.md'), 'utf8')).toBe(summary);
  });

  it('while the history gets tonight’s line: the nights before are all still there', async () => {
    const file = path.join(folder(), 'history.jsonl');
    const night = (n: number): HistoryEntry => ({
      v: 1,
      date: `2026-10-0${n}T03:17:00.000Z`,
      commit: null,
      model: 'qwen2.5:7b',
      digest: 'a'.repeat(64),
      verdict: 'pass',
      ece: { value: 0.05, low: 0.03, high: 0.08 },
      brier: 0.2,
      knownWallRate: 0.01,
      personaAccuracy: null,
      churnAccuracy: null,
    });
    writeFileSync(file, `${JSON.stringify(night(1))}\n${JSON.stringify(night(2))}\n`);
    const before = readFileSync(file, 'utf8');
    fillDiskAfter(30);
    await expect(recordNight(file, night(3), CHECKS)).rejects.toThrow('no space left');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('while the cache is pruned: the cached log stays whole', async () => {
    const dir = folder();
    const cached = path.join(dir, 'samples.jsonl');
    const log = path.join(dir, 'run.jsonl');
    const call = (key: string) =>
      JSON.stringify(churnRecord(key, { model: 'm:1b', digest: null, latency_ms: 3 }));
    writeFileSync(cached, 'the cached log of last night\n');
    writeFileSync(log, `${call('q1')}\n${call('q2')}\n`);
    fillDiskAfter(40);
    await expect(pruneLog(log, cached, ['m:1b'])).rejects.toThrow('no space left');
    expect(readFileSync(cached, 'utf8')).toBe('the cached log of last night\n');
    expect(readdirSync(dir).sort()).toEqual(['run.jsonl', 'samples.jsonl']);
  });

  it('for any file the shared writer writes (report.html, gpu.csv…): old content or new, whole', () => {
    const file = path.join(folder(), 'report.html');
    writeFileAtomic(file, '<p>yesterday</p>');
    fillDiskAfter(5);
    expect(() => writeFileAtomic(file, '<p>today, much longer</p>')).toThrow('no space left');
    expect(readFileSync(file, 'utf8')).toBe('<p>yesterday</p>');
    expect(readdirSync(path.dirname(file))).toEqual(['report.html']);
  });
});

import { appendFileSync, mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  countedRecords,
  digestsOfRuns,
  readCountedLogs,
  type SampleRecord,
} from '../../src/sampleLog/index.js';
import { churnRecord } from './records.js';

const OLD = `sha256:${'a'.repeat(64)}`;
const NEW = `sha256:${'b'.repeat(64)}`;

function writeLog(dir: string, name: string, lines: readonly object[]): string {
  const file = path.join(dir, name);
  writeFileSync(file, lines.map((line) => `${JSON.stringify(line)}\n`).join(''));
  return file;
}

async function visited(files: readonly string[]): Promise<SampleRecord[]> {
  const logs = await readCountedLogs(files);
  const records: SampleRecord[] = [];
  await logs.each((record) => records.push(record));
  expect(records).toHaveLength(logs.count);
  return records;
}

const runRecord = (model: string, digest: string) => ({
  v: 1,
  kind: 'run',
  startedAt: '2026-01-01T00:00:00.000Z',
  toolVersion: '0.1.0',
  provider: { provider: 'ollama', host: 'h', version: null, simulated: true },
  models: [
    { model, digest, quantization: null, parameterSize: null, family: null, simulated: true },
  ],
  loadedBefore: null,
  warnings: [],
  shard: null,
});

describe('the logs of an analysis, read twice', () => {
  it('hands over what the rule over the records held in memory keeps, in the same order', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'counted-logs-'));
    // Retries, failures after answers, two models, a re-pulled tag: scrambled over two files.
    const statuses = ['ok', 'error', 'timeout', 'invalid'] as const;
    const records: SampleRecord[] = [];
    for (let n = 0; n < 12_000; n++) {
      const key = `q${(n * 7919) % 2_003}`;
      const status = statuses[(n * 31) % 4] as (typeof statuses)[number];
      const answered = status === 'ok' || status === 'invalid';
      records.push(
        churnRecord(key, {
          model: n % 5 === 0 ? 'other:1b' : 'm:1b',
          digest: n % 7 === 0 ? OLD : NEW,
          sample: n % 3,
          status,
          answer: answered ? 'A' : null,
          correct: answered ? true : null,
          latency_ms: n,
        }),
      );
    }
    const runs = [runRecord('m:1b', NEW)];
    const first = writeLog(dir, 'a.jsonl', [runs[0] as object, ...records.slice(0, 5_000)]);
    const second = writeLog(dir, 'b.jsonl', records.slice(5_000));
    const expected = countedRecords(records, digestsOfRuns(runs as never));
    expect(expected.records.length).toBeGreaterThan(3_000);
    expect(await visited([first, second])).toEqual(expected.records);
    const logs = await readCountedLogs([first, second]);
    expect(logs.otherWeights).toEqual(expected.otherWeights);
    expect(logs.otherWeights).toHaveLength(2);
  });

  it('stops when a log changes between its two passes, rather than read other lines', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'counted-logs-'));
    const record = churnRecord('q1', { model: 'm:1b', digest: NEW, sample: 0 });
    const file = writeLog(dir, 'a.jsonl', [record]);
    const logs = await readCountedLogs([file]);
    appendFileSync(file, `${JSON.stringify(churnRecord('q2', { model: 'm:1b', digest: NEW }))}\n`);
    await expect(logs.each(() => {})).rejects.toThrow(`${file}: changed while it was analysed`);
    // Rewritten in place to the same size: the modification time tells.
    const same = writeLog(dir, 'b.jsonl', [record]);
    const again = await readCountedLogs([same]);
    writeLog(dir, 'b.jsonl', [{ ...record, key: 'q2' }]);
    utimesSync(same, new Date(), new Date(Date.now() + 5_000));
    await expect(again.each(() => {})).rejects.toThrow('changed while it was analysed');
    expect((await visited([file])).map((r) => r.key)).toEqual(['q1', 'q2']);
  });

  it('tells apart two identities whose hashes are equal', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'counted-logs-'));
    // These two keys' identities have the same 32-bit hash: the second must not replace the
    // first, and a retry of the first replaces only it.
    const failed = churnRecord('q229311', { status: 'error', answer: null, correct: null });
    const log = writeLog(dir, 'samples.jsonl', [
      failed,
      churnRecord('q1140600'),
      churnRecord('q229311', { latency_ms: 99 }),
    ]);
    const kept = await visited([log]);
    expect(kept.map((r) => [r.key, r.kind === 'call' ? r.latency_ms : null])).toEqual([
      ['q1140600', 12],
      ['q229311', 99],
    ]);
  });

  it('says when every record read counts, the first pass then giving what the second would', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'counted-logs-'));
    const record = (key: string, extra: Parameters<typeof churnRecord>[1] = {}) =>
      churnRecord(key, { digest: NEW, ...extra });
    const clean = [record('q1'), record('q2'), record('q1', { sample: 1 })];
    const cases: [string, object[], boolean][] = [
      ['clean', [runRecord('m:1b', NEW), ...clean], true],
      ['a retry', [...clean, record('q2', { latency_ms: 5 })], false],
      [
        'an earlier digest',
        [runRecord('m:1b', NEW), ...clean, record('q3', { digest: OLD })],
        false,
      ],
    ];
    for (const [name, lines, all] of cases) {
      const firstPass: SampleRecord[] = [];
      const logs = await readCountedLogs([writeLog(dir, `${name}.jsonl`, lines)], (r) =>
        firstPass.push(r),
      );
      expect(logs.everyRecordCounts, name).toBe(all);
      expect(firstPass, name).toHaveLength(lines.length - (name === 'a retry' ? 0 : 1));
      const second: SampleRecord[] = [];
      await logs.each((r) => second.push(r));
      if (all) expect(firstPass).toEqual(second);
      else expect(second.length).toBeLessThan(firstPass.length);
    }
  });
});

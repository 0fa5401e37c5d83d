import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import '../../src/checks/builtIn.js';
import {
  indexSampleLog,
  ResumeIndex,
  streamLog,
  type SampleRecord,
} from '../../src/sampleLog/index.js';
import type { DragonCallRecord } from '../../src/checks/dragon/records.js';

const decision = (key: string, digest: string | null, decisionIndex: number): DragonCallRecord => ({
  v: 1,
  kind: 'call',
  check: 'dragon',
  model: 'm:1b',
  digest,
  key,
  sample: 0,
  options: { temperature: 0, seed: 1, num_ctx: 4096, num_predict: 64, think: false },
  prompt_sha256: 'p'.repeat(64),
  status: 'ok',
  latency_ms: 3,
  attempts: 1,
  game: 3,
  decision: decisionIndex,
  turn: decisionIndex,
  move: 'up',
  confidence: 0.5,
  outcome: 'moved',
});

describe('ResumeIndex', () => {
  it("finds a unit's records by its key, a game's decisions under the game's key, per digest", () => {
    const records: SampleRecord[] = [
      decision('dragon/seed-3/0', 'd1', 0),
      decision('dragon/seed-3/1', 'd1', 1),
      decision('dragon/seed-3/0', 'd2', 0),
      decision('dragon/seed-30/0', 'd1', 0),
    ];
    const index = new ResumeIndex(records);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([records[0], records[1]]);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3/1')).toEqual([records[1]]);
    expect(index.get('dragon', 'm:1b', 'd2', 'dragon/seed-3')).toEqual([records[2]]);
    expect(index.get('dragon', 'm:1b', null, 'dragon/seed-3')).toEqual([]);
    expect(index.get('dragon', 'other:1b', 'd1', 'dragon/seed-3')).toEqual([]);
    expect(index.get('churn', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([]);
  });
});

describe('indexSampleLog', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-index-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const lines = (records: readonly SampleRecord[]): string =>
    records.map((r) => `${JSON.stringify(r)}\n`).join('');

  it('reads a unit’s records back from their offsets, the retried one replacing the failure', async () => {
    const failed = { ...decision('dragon/seed-3/0', 'd1', 0), status: 'error' as const };
    const retried = { ...decision('dragon/seed-3/0', 'd1', 0), move: 'down' as const };
    const records = [failed, decision('dragon/seed-3/1', 'd1', 1), retried];
    const file = path.join(dir, 'a.jsonl');
    // A line of another length (a multi-byte character) before them: offsets are bytes.
    writeFileSync(
      file,
      lines([{ ...decision('dragon/seed-9/0', 'd1', 0), model: 'é:1b' }, ...records]),
    );
    const { index, warnings } = await indexSampleLog(file);
    expect(warnings).toEqual([]);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([records[1], retried]);
    expect(index.get('dragon', 'é:1b', 'd1', 'dragon/seed-9')).toHaveLength(1);
    expect(index.get('dragon', 'm:1b', 'd2', 'dragon/seed-3')).toEqual([]);
    index.close();
  });

  it('leaves out a last line without its newline, which opening the log removes', async () => {
    const file = path.join(dir, 'b.jsonl');
    const first = decision('dragon/seed-3/0', 'd1', 0);
    writeFileSync(file, `${lines([first])}${JSON.stringify(decision('dragon/seed-3/1', 'd1', 1))}`);
    const { index } = await indexSampleLog(file);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([first]);
    index.close();
  });
});

describe('reading a log larger than one read', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-read-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives every line and its byte offset across read boundaries, long lines, CRLF and multi-byte text', async () => {
    // Records of varied lengths (one over 2 MB, longer than two reads of 1 MB), some with
    // "é" (two bytes) and some ending in CRLF: line ends land everywhere relative to a read.
    const records: SampleRecord[] = [];
    for (let i = 0; i < 1200; i++) {
      const long = i === 600 ? 2_300_000 : (i * 7919) % 4000;
      records.push({ ...decision(`dragon/seed-${i}/0`, 'd1', 0), reason: 'é'.repeat(long) });
    }
    const texts = records.map((r, i) => `${JSON.stringify(r)}${i % 3 === 0 ? '\r\n' : '\n'}`);
    const file = path.join(dir, 'big.jsonl');
    writeFileSync(file, texts.join(''));
    const seen: { key: string; at: number; reason: number }[] = [];
    const warnings = await streamLog(file, {
      record: (record, _line, at) =>
        seen.push({
          key: record.key,
          at,
          reason: (record as DragonCallRecord).reason?.length ?? 0,
        }),
      run: () => {},
    });
    expect(warnings).toEqual([]);
    let at = 0;
    const expected = records.map((r, i) => {
      const entry = { key: r.key, at, reason: (r as DragonCallRecord).reason?.length ?? 0 };
      at += Buffer.byteLength(texts[i] as string);
      return entry;
    });
    expect(seen).toEqual(expected);
    // The offsets read the records back (resume reads a unit's lines from them).
    const { index } = await indexSampleLog(file);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-600')).toEqual([records[600]]);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-1199')).toEqual([records[1199]]);
    index.close();
  });
});

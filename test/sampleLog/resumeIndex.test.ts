import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type DragonCallRecord,
  indexSampleLog,
  ResumeIndex,
  type SampleRecord,
} from '../../src/sampleLog/index.js';

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

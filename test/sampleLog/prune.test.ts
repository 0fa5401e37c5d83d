import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { pruneLog, pruneNote } from '../../src/sampleLog/index.js';
import { churnRecord } from './records.js';

const call = (model: string, key: string): string =>
  JSON.stringify(churnRecord(key, { model, digest: null, latency_ms: 3 }));

const run = (...models: string[]): string =>
  JSON.stringify({
    v: 1,
    kind: 'run',
    startedAt: '2026-11-30T00:00:00.000Z',
    toolVersion: '0.1.0',
    provider: {},
    models: models.map((model) => ({ model, digest: null })),
    loadedBefore: null,
    shard: null,
    warnings: [],
  });

describe('pruneLog', () => {
  it("keeps the lines of the config's models as written, and counts the others", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-prune-'));
    const file = path.join(dir, 'samples.jsonl');
    const lines = [
      run('old:1b', 'base:1b'),
      call('old:1b', 'q1'),
      call('base:1b', 'q1'),
      run('older:1b'),
      call('older:1b', 'q1'),
      call('old:1b', 'q2'),
      call('new:1b', 'q1'),
    ];
    writeFileSync(file, `${lines.join('\n')}\n`);
    const result = await pruneLog(file, file, ['base:1b', 'new:1b']);
    expect(result).toMatchObject({ kept: 2, dropped: 3, droppedModels: ['old:1b', 'older:1b'] });
    // The run record naming a current model stays; the one naming only a dropped model goes.
    expect(readFileSync(file, 'utf8')).toBe(`${[lines[0], lines[2], lines[6]].join('\n')}\n`);
    expect(pruneNote(result, 'samples.jsonl')).toBe(
      'samples.jsonl: dropped 3 records of models not in this config (old:1b, older:1b); 2 kept. --keep-history keeps them',
    );
    expect(existsSync(`${file}.pruning`)).toBe(false);
  });

  it('leaves the target untouched when the source is not a sample log', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-prune-'));
    const source = path.join(dir, 'broken.jsonl');
    const target = path.join(dir, 'samples.jsonl');
    writeFileSync(source, `${call('base:1b', 'q1')}\nnot json\n${call('base:1b', 'q2')}\n`);
    writeFileSync(target, 'the previous cache\n');
    await expect(pruneLog(source, target, ['base:1b'])).rejects.toThrow(
      `${source}:2: not a JSON record`,
    );
    expect(readFileSync(target, 'utf8')).toBe('the previous cache\n');
    expect(existsSync(`${target}.pruning`)).toBe(false);
  });
});

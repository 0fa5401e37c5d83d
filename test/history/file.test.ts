import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { appendHistory, parseHistory, readHistory } from '../../src/history/file.js';

const entry: HistoryEntry = {
  v: 1,
  date: '2026-10-01T03:17:00.000Z',
  commit: null,
  model: 'qwen2.5:7b',
  digest: 'a'.repeat(64),
  verdict: 'pass',
  ece: { value: 0.05, low: 0.03, high: 0.08 },
  brier: 0.2,
  knownWallRate: 0.01,
  personaAccuracy: null,
  churnAccuracy: null,
};

describe('history file', () => {
  it('is empty before the first night and grows one line per append', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-')), 'deep', 'h.jsonl');
    expect(await readHistory(file)).toEqual([]);
    await appendHistory(file, entry);
    await appendHistory(file, { ...entry, date: '2026-10-02T03:17:00.000Z' });
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    expect((await readHistory(file)).map((e) => e.date.slice(0, 10))).toEqual([
      '2026-10-01',
      '2026-10-02',
    ]);
  });

  it('names the file and line of a damaged night', () => {
    const text = `${JSON.stringify(entry)}\n{"v": 1, "date": "yesterday"\n`;
    expect(() => parseHistory(text, 'h.jsonl')).toThrow(InputError);
    expect(() => parseHistory(text, 'h.jsonl')).toThrow('h.jsonl line 2: not JSON');
    const wrong = JSON.stringify({ ...entry, ece: { value: 'low' } });
    try {
      parseHistory(`\n${wrong}\n`, 'h.jsonl');
      expect.unreachable();
    } catch (error) {
      expect((error as InputError).message).toBe('h.jsonl line 2: not a model-gate history line');
      expect((error as InputError).details.join(' ')).toContain('ece.value');
    }
  });

  it('refuses an unknown field rather than dropping it', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-')), 'h.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...entry, eceDelta: 0.1 })}\n`);
    return expect(readHistory(file)).rejects.toThrow('line 1: not a model-gate history line');
  });
});

import { CHECKS } from '../../src/checks/builtIn.js';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { HistoryEntry } from '../../src/history/entry.js';
import { oneLinePerNight } from '../../src/history/entry.js';
import { parseHistory, readHistory, recordNight } from '../../src/history/file.js';

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
  it('is empty before the first night and grows one line per night', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-')), 'deep', 'h.jsonl');
    expect(await readHistory(file, CHECKS)).toEqual([]);
    await recordNight(file, entry, CHECKS);
    await recordNight(file, { ...entry, date: '2026-10-02T03:17:00.000Z' }, CHECKS);
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    expect((await readHistory(file, CHECKS)).map((e) => e.date.slice(0, 10))).toEqual([
      '2026-10-01',
      '2026-10-02',
    ]);
  });

  it('counts nights, not runs: a second run on one night replaces that night of that model', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-')), 'h.jsonl');
    const other = { ...entry, model: 'llama3.2:3b', date: '2026-10-02T03:30:00.000Z' };
    await recordNight(file, entry, CHECKS);
    await recordNight(file, other, CHECKS);
    await recordNight(file, { ...entry, date: '2026-10-02T03:17:00.000Z' }, CHECKS);
    // 23:59 and 00:01 UTC are two nights; 03:17 and 22:40 of one UTC day are one.
    await recordNight(file, { ...entry, date: '2026-10-02T22:40:00.000Z', brier: 0.3 }, CHECKS);
    const nights = await readHistory(file, CHECKS);
    expect(nights.map((e) => [e.model, e.date, e.brier])).toEqual([
      ['qwen2.5:7b', '2026-10-01T03:17:00.000Z', 0.2],
      ['llama3.2:3b', '2026-10-02T03:30:00.000Z', 0.2],
      ['qwen2.5:7b', '2026-10-02T22:40:00.000Z', 0.3],
    ]);
    expect(existsSync(`${file}.writing`)).toBe(false);
  });

  it('reads a file written before nights were merged as one line per night, the last one standing', () => {
    const runs = [
      entry,
      { ...entry, date: '2026-10-01T23:59:59.000Z', brier: 0.25 },
      { ...entry, date: '2026-10-02T00:00:01.000Z', brier: 0.3 },
    ];
    expect(oneLinePerNight(runs).map((e) => e.brier)).toEqual([0.25, 0.3]);
  });

  it('names the file and line of a damaged night', () => {
    const text = `${JSON.stringify(entry)}\n{"v": 1, "date": "yesterday"\n`;
    expect(() => parseHistory(text, 'h.jsonl', CHECKS)).toThrow(InputError);
    expect(() => parseHistory(text, 'h.jsonl', CHECKS)).toThrow('h.jsonl line 2: not JSON');
    const wrong = JSON.stringify({ ...entry, ece: { value: 'low' } });
    try {
      parseHistory(`\n${wrong}\n`, 'h.jsonl', CHECKS);
      expect.unreachable();
    } catch (error) {
      expect((error as InputError).message).toBe('h.jsonl line 2: not a model-gate history line');
      expect((error as InputError).details.join(' ')).toContain('ece.value');
    }
  });

  it('refuses an unknown field rather than dropping it', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'history-')), 'h.jsonl');
    writeFileSync(file, `${JSON.stringify({ ...entry, eceDelta: 0.1 })}\n`);
    return expect(readHistory(file, CHECKS)).rejects.toThrow(
      'line 1: not a model-gate history line',
    );
  });
});

import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import {
  latestRecords,
  openSampleLog,
  parseSampleLog,
  readSampleLogs,
} from '../../src/sampleLog/index.js';
import { tempLog } from '../runner/simulated.js';
import { churnRecord } from './records.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

function churn(
  key: string,
  status: ChurnCallRecord['status'],
  answer: string | null = 'A',
): ChurnCallRecord {
  return churnRecord(key, { status, answer, correct: answer === 'A' });
}

const line = (r: SampleRecord): string => `${JSON.stringify(r)}\n`;

describe('the sample log', () => {
  it('appends one line per record and reads them back', async () => {
    const file = tempLog();
    const { writer, warnings } = openSampleLog(file);
    expect(warnings).toEqual([]);
    writer.append(churn('q1', 'ok'));
    writer.append(churn('q2', 'timeout', null));
    // Written before append returns: another reader sees it without close().
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(3);
    writer.close();
    const read = await readSampleLogs([file]);
    expect(read.records.map((r) => r.key)).toEqual(['q1', 'q2']);
    expect(read.warnings).toEqual([]);
  });

  it('skips a cut-short last line with a warning, and the writer removes it on reopen', async () => {
    const file = tempLog();
    writeFileSync(file, `${line(churn('q1', 'ok'))}{"v":1,"kind":"call","check":"ch`);
    const read = await readSampleLogs([file]);
    expect(read.records).toHaveLength(1);
    expect(read.warnings).toEqual([
      expect.stringMatching(/samples\.jsonl:2: skipped an incomplete last line/),
    ]);
    const { writer, warnings } = openSampleLog(file);
    expect(warnings[0]).toMatch(/removed an incomplete last line \(32 bytes\)/);
    writer.append(churn('q2', 'ok'));
    writer.close();
    const again = await readSampleLogs([file]);
    expect(again.records.map((r) => r.key)).toEqual(['q1', 'q2']);
    expect(again.warnings).toEqual([]);
  });

  it('rejects a malformed line that is not the last, naming file and line', () => {
    const text = `${line(churn('q1', 'ok'))}not json\n${line(churn('q2', 'ok'))}`;
    expect(() => parseSampleLog(text, 'run/samples.jsonl')).toThrow(InputError);
    expect(() => parseSampleLog(text, 'run/samples.jsonl')).toThrow(
      /^run\/samples\.jsonl:2: not a JSON record$/,
    );
  });

  it('rejects another schema version and a bad field, naming the line', () => {
    const future = `${line(churn('q1', 'ok'))}${JSON.stringify({ ...churn('q2', 'ok'), v: 2 })}\n`;
    expect(() => parseSampleLog(future, 'a.jsonl')).toThrow(
      /^a\.jsonl:2: sample log schema version 2, this version of model-gate reads version 1$/,
    );
    const badStatus = `${JSON.stringify({ ...churn('q1', 'ok'), status: 'fine' })}\n`;
    expect(() => parseSampleLog(badStatus, 'b.jsonl')).toThrow(/^b\.jsonl:1: field "status"/);
  });

  it('keeps the last record per identity, in the order the kept records were written', () => {
    const records = [churn('q1', 'error', null), churn('q2', 'ok'), churn('q1', 'ok', 'B')];
    const kept = latestRecords(records);
    expect(kept.map((r) => [r.key, r.kind === 'call' ? r.status : ''])).toEqual([
      ['q2', 'ok'],
      ['q1', 'ok'],
    ]);
    // Another sample index or another digest is another identity.
    expect(latestRecords([churn('q1', 'ok'), { ...churn('q1', 'ok'), sample: 1 }])).toHaveLength(2);
    expect(latestRecords([churn('q1', 'ok'), { ...churn('q1', 'ok'), digest: null }])).toHaveLength(
      2,
    );
  });

  it('merges several logs (shards) and returns run records apart', async () => {
    const a = tempLog();
    const b = tempLog();
    const run = {
      v: 1,
      kind: 'run',
      startedAt: 'x',
      toolVersion: '0.1.0',
      provider: { provider: 'ollama', host: 'h', version: null, simulated: true },
      models: [],
      loadedBefore: null,
      shard: '1/2',
      warnings: [],
    };
    writeFileSync(a, `${JSON.stringify(run)}\n${line(churn('q1', 'ok'))}`);
    writeFileSync(b, `${JSON.stringify({ ...run, shard: '2/2' })}\n${line(churn('q2', 'ok'))}`);
    const merged = await readSampleLogs([a, b]);
    expect(merged.records.map((r) => r.key)).toEqual(['q1', 'q2']);
    expect(merged.runs.map((r) => r.shard)).toEqual(['1/2', '2/2']);
  });

  it('names a missing log file', async () => {
    await expect(readSampleLogs(['nowhere/samples.jsonl'])).rejects.toThrow(
      /^nowhere\/samples\.jsonl: sample log not found$/,
    );
  });
});

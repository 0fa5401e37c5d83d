import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import '../../../src/checks/builtIn.js';
import { ChurnCallHolder } from '../../../src/checks/churn/heldCall.js';
import { readSampleLogs, type SampleRecord } from '../../../src/sampleLog/index.js';
import { churnRecord } from '../../sampleLog/records.js';

const FIELDS = [
  'v',
  'kind',
  'check',
  'model',
  'digest',
  'key',
  'sample',
  'options',
  'prompt_sha256',
  'status',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
  'attempts',
  'item',
  'domain',
  'mode',
  'answer',
  'correct',
] as const;

function fieldsOf(record: SampleRecord): Record<string, unknown> {
  const read = record as unknown as Record<string, unknown>;
  return Object.fromEntries(FIELDS.map((field) => [field, read[field]]));
}

const isPlain = (record: SampleRecord): boolean =>
  Object.getPrototypeOf(record) === Object.prototype;

describe('churn call records held compactly', () => {
  const shapes = [
    churnRecord('q1'),
    churnRecord('q1/s7', { sample: 7, attempts: 3, prompt_tokens: 120, completion_tokens: 8 }),
    churnRecord('q2/greedy', { mode: 'greedy', answer: 'C', correct: false, latency_ms: 0.25 }),
    churnRecord('q3', { status: 'timeout', answer: null, correct: null, digest: null }),
    churnRecord('q4', { status: 'invalid', answer: null, correct: null, sample: 65_535 }),
  ];

  it('reads every field as written, and serialises to the record as written', () => {
    const holder = new ChurnCallHolder();
    for (const record of shapes) {
      const held = holder.hold(record);
      expect(isPlain(held)).toBe(false);
      expect(fieldsOf(held)).toEqual(fieldsOf(record));
      expect(JSON.parse(JSON.stringify(held))).toEqual(record);
    }
  });

  it('shares what records of one series repeat, and keeps what is their own', () => {
    const holder = new ChurnCallHolder();
    const options = churnRecord('x').options;
    const a = fieldsOf(holder.hold(churnRecord('q1/s1', { sample: 1, options })));
    const b = fieldsOf(holder.hold(churnRecord('q2/s2', { sample: 2, item: 'q2', options })));
    expect(a.options).toBe(b.options);
    expect([a.key, a.sample, a.item]).toEqual(['q1/s1', 1, 'q1/s1']);
    expect([b.key, b.sample, b.item]).toEqual(['q2/s2', 2, 'q2']);
  });

  it('keeps a record with a field the compact form has no slot for as parsed', () => {
    const holder = new ChurnCallHolder();
    const kept = [
      churnRecord('q1', { status: 'invalid', reason: 'no letter', answer: null, correct: null }),
      churnRecord('q2', { text: 'B' }),
      churnRecord('q3', { mode: 'exact', estimator: 'ollama-logprobs', estimate_temperature: 0.7 }),
      churnRecord('q4', { sample: 70_000 }),
      churnRecord('q5', { attempts: 300 }),
    ];
    for (const record of kept) expect(holder.hold(record)).toBe(record);
  });

  it('reads a log to the same values, compact or plain', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'held-'));
    const file = path.join(dir, 'samples.jsonl');
    const lines = [
      churnRecord('q1', { status: 'error', answer: null, correct: null, reason: 'refused' }),
      ...shapes,
      churnRecord('q1', { attempts: 2 }),
    ];
    writeFileSync(file, lines.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const plain = await readSampleLogs([file]);
    const compact = await readSampleLogs([file], { compact: true });
    expect(compact.records.filter(isPlain)).toHaveLength(0);
    expect(compact.records.map((r) => JSON.parse(JSON.stringify(r)))).toEqual(plain.records);
  });
});

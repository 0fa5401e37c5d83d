import { describe, expect, it } from 'vitest';
import {
  countedRecords,
  latestRecords,
  recordIdentity,
  otherWeightsNote,
  type SampleRecord,
} from '../../src/sampleLog/index.js';
import { churnRecord } from './records.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

const OLD = `sha256:${'a'.repeat(64)}`;
const NEW = `sha256:${'b'.repeat(64)}`;

function churn(key: string, extra: Partial<ChurnCallRecord> = {}): ChurnCallRecord {
  return churnRecord(key, { digest: NEW, ...extra });
}

const failed = (key: string, status: 'error' | 'timeout'): ChurnCallRecord =>
  churn(key, { status, answer: null, correct: null });
const statusOf = (records: readonly SampleRecord[]) =>
  records.map((r) => [r.key, r.kind === 'call' ? r.status : r.kind]);

describe('which record counts', () => {
  it('an answer replaces an earlier error or timeout; a later failure never replaces an answer', () => {
    const records = [
      failed('q1', 'error'),
      churn('q2'),
      failed('q3', 'timeout'),
      churn('q1', { answer: 'B', correct: false }),
      failed('q2', 'error'),
      failed('q3', 'error'),
    ];
    expect(statusOf(latestRecords(records))).toEqual([
      ['q2', 'ok'],
      ['q1', 'ok'],
      ['q3', 'error'],
    ]);
  });

  it('another sample, prompt or request option is another record', () => {
    const base = churn('q1');
    const others = [
      churn('q1', { sample: 1 }),
      churn('q1', { prompt_sha256: 'q'.repeat(64) }),
      churn('q1', { options: { ...base.options, temperature: 0.5 } }),
      churn('q1', { mode: 'exact', estimate_temperature: 1 }),
    ];
    expect(latestRecords([base, ...others])).toHaveLength(5);
  });

  it('uses the current digest of a model only, and counts what it leaves out', () => {
    const records = [
      churn('q1', { digest: OLD }),
      churn('q2', { digest: OLD }),
      churn('q1'),
      churn('q1', { model: 'other:2b', digest: null }),
    ];
    // Without a run record, the digest of the model's latest record is current.
    const counted = countedRecords(records);
    expect(counted.records.map((r) => [r.model, r.key, r.digest])).toEqual([
      ['m:1b', 'q1', NEW],
      ['other:2b', 'q1', null],
    ]);
    expect(counted.otherWeights).toEqual([
      { model: 'm:1b', digest: OLD, records: 2, current: NEW },
    ]);
    expect(otherWeightsNote(counted.otherWeights[0] as never)).toBe(
      '2 records of m:1b from earlier weights (digest aaaaaaaaaaaa) left out: this report uses digest bbbbbbbbbbbb only, never two versions of a model',
    );
    // The digest a run found wins over the latest record's.
    const byRun = countedRecords(records, new Map([['m:1b', OLD]]));
    expect(byRun.records.map((r) => [r.key, r.digest])).toEqual([
      ['q1', OLD],
      ['q2', OLD],
      ['q1', null],
    ]);
  });
});

describe('the rule over a large log', () => {
  it('keeps what the identity-by-string reading of the rule keeps, in the same order', () => {
    // Thousands of keys (the table grows many times), two models, two options per key, retries
    // and failures after answers, in a scrambled order.
    const records: SampleRecord[] = [];
    const statuses = ['ok', 'error', 'timeout', 'invalid'] as const;
    for (let n = 0; n < 24_000; n++) {
      const key = `q${(n * 7919) % 3_001}/s${n % 3}`;
      const status = statuses[(n * 31) % 4] as (typeof statuses)[number];
      const answered = status === 'ok' || status === 'invalid';
      records.push(
        churn(key, {
          model: n % 5 === 0 ? 'other:1b' : 'm:1b',
          sample: n % 3,
          options: { ...churn(key).options, seed: n % 2 },
          status,
          answer: answered ? 'A' : null,
          correct: answered ? true : null,
          latency_ms: n,
        }),
      );
    }
    const expected = new Map<string, SampleRecord>();
    const isFinal = (r: SampleRecord): boolean =>
      r.kind !== 'call' || r.status === 'ok' || r.status === 'invalid';
    for (const record of records) {
      const id = recordIdentity(record);
      const before = expected.get(id);
      if (before && isFinal(before) && !isFinal(record)) continue;
      expected.delete(id);
      expected.set(id, record);
    }
    const kept = latestRecords(records);
    expect(kept.length).toBeGreaterThan(10_000);
    // Map order is the order of each identity's latest setting: the log order of what is kept.
    expect(kept).toEqual([...expected.values()]);
  });
});

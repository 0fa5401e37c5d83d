/** A churn call record with every field a valid one carries, for the sample-log tests. */
// The registry hands each check's record format to the sample log, which reads none without it.
import '../../src/checks/builtIn.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

/** An ok stochastic answer "A" (right) to item `key` by m:1b; `extra` overrides any field. */
export function churnRecord(key: string, extra: Partial<ChurnCallRecord> = {}): ChurnCallRecord {
  return {
    v: 1,
    kind: 'call',
    check: 'churn',
    model: 'm:1b',
    digest: 'd'.repeat(64),
    key,
    sample: 0,
    options: { temperature: 0.7, seed: 1, num_ctx: 4096, num_predict: 32, think: false },
    prompt_sha256: 'p'.repeat(64),
    status: 'ok',
    latency_ms: 12,
    attempts: 1,
    item: key,
    domain: 'd',
    mode: 'stochastic',
    answer: 'A',
    correct: true,
    ...extra,
  };
}

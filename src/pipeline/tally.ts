import { countStatus, emptyStatusCounts, type SampleRecord } from '../sampleLog/index.js';
import type { RequestTally } from '../report/types.js';

/**
 * How each model's requests went, from the call records alone (every check together).
 * A series is perturbed when its timeouts exceed `perturbedShare` of its calls.
 */
export function tallyRequests(
  records: readonly SampleRecord[],
  models: readonly string[],
  perturbedShare: number,
): RequestTally[] {
  return models.map((model) => {
    const counts = emptyStatusCounts();
    let latencySum = 0;
    let latencyCount = 0;
    for (const record of records) {
      if (record.kind !== 'call' || record.model !== model) continue;
      countStatus(counts, record.status);
      if (record.status === 'ok' || record.status === 'invalid') {
        latencySum += record.latency_ms;
        latencyCount++;
      }
    }
    const { total, timeout } = counts;
    return {
      model,
      ...counts,
      perturbed: total > 0 && timeout / total > perturbedShare,
      meanLatencyMs: latencyCount > 0 ? latencySum / latencyCount : null,
    };
  });
}

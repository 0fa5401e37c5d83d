import type { SampleRecord } from '../runner/records.js';
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
    let total = 0;
    let ok = 0;
    let invalid = 0;
    let timeout = 0;
    let error = 0;
    let latencySum = 0;
    let latencyCount = 0;
    for (const record of records) {
      if (record.kind !== 'call' || record.model !== model) continue;
      total++;
      if (record.status === 'ok') ok++;
      else if (record.status === 'invalid') invalid++;
      else if (record.status === 'timeout') timeout++;
      else error++;
      if (record.status === 'ok' || record.status === 'invalid') {
        latencySum += record.latency_ms;
        latencyCount++;
      }
    }
    return {
      model,
      total,
      ok,
      invalid,
      timeout,
      error,
      perturbed: total > 0 && timeout / total > perturbedShare,
      meanLatencyMs: latencyCount > 0 ? latencySum / latencyCount : null,
    };
  });
}

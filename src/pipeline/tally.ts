import type { RequestTally } from '../report/types.js';
import {
  countStatus,
  emptyStatusCounts,
  type SampleRecord,
  type StatusCounts,
} from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';

/** How each model's requests went, from the call records alone (every check together). */
export class RequestCounts {
  private readonly byModel = new Map<
    string,
    { counts: StatusCounts; latencySum: number; latencyCount: number }
  >();

  add(record: SampleRecord): void {
    if (!isCall(record)) return;
    let model = this.byModel.get(record.model);
    if (!model) {
      model = { counts: emptyStatusCounts(), latencySum: 0, latencyCount: 0 };
      this.byModel.set(record.model, model);
    }
    countStatus(model.counts, record.status);
    if (record.status === 'ok' || record.status === 'invalid') {
      model.latencySum += record.latency_ms;
      model.latencyCount++;
    }
  }

  /** Per model; a series is perturbed when its timeouts exceed `perturbedShare` of its calls. */
  tally(models: readonly string[], perturbedShare: number): RequestTally[] {
    return models.map((model) => {
      const { counts, latencySum, latencyCount } = this.byModel.get(model) ?? {
        counts: emptyStatusCounts(),
        latencySum: 0,
        latencyCount: 0,
      };
      const { total, timeout } = counts;
      return {
        model,
        ...counts,
        perturbed: total > 0 && timeout / total > perturbedShare,
        meanLatencyMs: latencyCount > 0 ? latencySum / latencyCount : null,
      };
    });
  }
}

/** The tally of a list of records (see RequestCounts). */
export function tallyRequests(
  records: readonly SampleRecord[],
  models: readonly string[],
  perturbedShare: number,
): RequestTally[] {
  const counts = new RequestCounts();
  for (const record of records) counts.add(record);
  return counts.tally(models, perturbedShare);
}

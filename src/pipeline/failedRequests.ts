/**
 * Requests that still failed after the runner's retries (a 500, a busy server, a malformed or
 * interrupted reply) measured nothing about the model. The checks' own rules look at timeouts
 * and invalid answers; this one looks at those failures, for every check alike, so that a
 * candidate the server could not run is never reported as passing.
 */
import type { GateFinding } from '../checks/types.js';
import type { CheckName } from '../config/schema.js';
import type { SampleRecord } from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';
import { percent } from '../text/format.js';
import { neutralise } from '../text/neutralise.js';

const REASON_LENGTH = 140;

/** Per check and model: calls, and the failures by reason, counted as the records arrive. */
export class FailedRequests {
  private readonly byModel = new Map<string, { total: number; reasons: Map<string, number> }>();

  add(record: SampleRecord): void {
    if (!isCall(record)) return;
    const id = `${record.check}\n${record.model}`;
    let counts = this.byModel.get(id);
    if (!counts) {
      counts = { total: 0, reasons: new Map() };
      this.byModel.set(id, counts);
    }
    counts.total++;
    if (record.status !== 'error') return;
    const reason = (record.reason ?? 'no reason recorded').replace(/ \(\d+ attempts?\)$/, '');
    counts.reasons.set(reason, (counts.reasons.get(reason) ?? 0) + 1);
  }

  /**
   * One `inconclusive` finding per model whose share of failed requests in this check is above
   * `limit` (the check's max-timeout-share: a failed request is as unmeasured as a timeout).
   */
  findings(check: CheckName, models: readonly string[], limit: number): GateFinding[] {
    const findings: GateFinding[] = [];
    for (const model of models) {
      const counts = this.byModel.get(`${check}\n${model}`);
      if (!counts) continue;
      const { total, reasons } = counts;
      const failed = [...reasons.values()].reduce((a, b) => a + b, 0);
      if (total === 0 || failed / total <= limit) continue;
      const [commonest] = [...reasons.entries()].sort((a, b) => b[1] - a[1]);
      // The reason quotes the server's error body: shown neutralised and short.
      const reason = neutralise(commonest?.[0] ?? '', REASON_LENGTH);
      findings.push({
        check,
        rule: 'failed-requests',
        severity: 'inconclusive',
        message: `${neutralise(model, 200)}: ${failed} of ${total} ${check} requests failed after retries (${percent(failed / total, 1, { trim: true })}, limit ${percent(limit, 1, { trim: true })}), most often "${reason}"; the server could not run the model, so nothing is concluded`,
        values: { model, failed, total, share: failed / total, limit },
      });
    }
    return findings;
  }
}

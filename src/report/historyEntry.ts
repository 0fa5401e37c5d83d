/** Tonight's line of the nightly history, taken from a single-model report. */
import { type Estimate, HISTORY_VERSION, type HistoryEntry } from '../history/entry.js';
import { field, finiteOrNull } from '../render/json.js';
import type { Report } from './types.js';

function estimateOf(value: unknown): Estimate | null {
  const v = finiteOrNull(field(value, 'value'));
  const low = finiteOrNull(field(value, 'low'));
  const high = finiteOrNull(field(value, 'high'));
  return v === null || low === null || high === null ? null : { value: v, low, high };
}

/** Tonight's line from tonight's report (single-model: the baseline is the model). */
export function entryFromReport(report: Report, commit: string | null): HistoryEntry | null {
  const model = report.run.models.baseline;
  if (!model || report.run.models.candidate) return null;
  const dragon = field(report.checks.dragon, 'baseline');
  const personas = field(report.checks.personas, 'models');
  const personaSeries = Array.isArray(personas)
    ? personas.find((m) => field(m, 'role') === 'baseline')
    : undefined;
  return {
    v: HISTORY_VERSION,
    date: report.createdAt,
    commit,
    model: model.model,
    digest: model.digest,
    verdict: report.verdict.status,
    ece: estimateOf(field(dragon, 'ece')),
    brier: finiteOrNull(field(dragon, 'brier')),
    knownWallRate: finiteOrNull(field(dragon, 'knownWallRepeatRate')),
    personaAccuracy: finiteOrNull(field(personaSeries, 'accuracy')),
    churnAccuracy: finiteOrNull(field(report.checks.churn, 'baseline', 'accuracy', 'mean')),
  };
}

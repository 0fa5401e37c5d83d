/** Tonight's line of the nightly history, taken from a single-model report. */
import { nightlyOf } from '../checks/registry.js';
import { HISTORY_VERSION, type HistoryEntry } from '../history/entry.js';
import type { Report } from './types.js';

/** Tonight's line from tonight's report (single-model: the baseline is the model). */
export function entryFromReport(report: Report, commit: string | null): HistoryEntry | null {
  const model = report.run.models.baseline;
  if (!model || report.run.models.candidate) return null;
  const entry: HistoryEntry = {
    v: HISTORY_VERSION,
    date: report.createdAt,
    commit,
    model: model.model,
    digest: model.digest,
    verdict: report.verdict.status,
    ...nightlyOf(report.checks),
  };
  return entry;
}

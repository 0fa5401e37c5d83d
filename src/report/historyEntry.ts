/** Tonight's line of the nightly history, taken from a single-model run's analysis. */
import { type CheckList, nightlyOf } from '../checks/list.js';
import type { VerdictStatus } from '../checks/types.js';
import { HISTORY_VERSION, type HistoryEntry } from '../history/entry.js';
import type { Report, RunMetadata } from './types.js';

export interface NightInput {
  checks: CheckList;
  run: RunMetadata;
  sections: Report['checks'];
  createdAt: Date;
  commit: string | null;
  verdict: VerdictStatus;
}

/** Tonight's line (single-model: the baseline is the model); null for a two-model run. */
export function nightEntry(input: NightInput): HistoryEntry | null {
  const model = input.run.models.baseline;
  if (!model || input.run.models.candidate) return null;
  return {
    v: HISTORY_VERSION,
    date: input.createdAt.toISOString(),
    commit: input.commit,
    model: model.model,
    digest: model.digest,
    verdict: input.verdict,
    ...nightlyOf(input.checks, input.sections),
  };
}

/**
 * One night of a nightly history (a JSON line of `output.history`), taken from a single-model
 * report. Fields are the numbers a trend is drawn from; null where the check did not run.
 */
import { z } from 'zod';
import { field, finiteOrNull } from '../render/json.js';
import type { Report } from '../report/types.js';

export const HISTORY_VERSION = 1;

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const estimate = z.object({ value: finite, low: finite, high: finite }).strict();

export const historyEntrySchema = z
  .object({
    v: z.literal(HISTORY_VERSION),
    /** When the night's report was built (ISO 8601, UTC). */
    date: z.iso.datetime(),
    /** Commit the workflow ran on (GITHUB_SHA), null outside CI. */
    commit: z.string().nullable(),
    model: z.string().min(1),
    digest: z.string().nullable(),
    verdict: z.enum(['pass', 'warn', 'fail', 'inconclusive']),
    /** Dragon: ECE with its 95% cluster-bootstrap interval over games. */
    ece: estimate.nullable(),
    brier: finite.nullable(),
    /** Dragon: share of moves into a wall the model had already been told about. */
    knownWallRate: finite.nullable(),
    personaAccuracy: finite.nullable(),
    /** Churn: mean accuracy over items, when churn ran. */
    churnAccuracy: finite.nullable(),
  })
  .strict();

export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type Estimate = NonNullable<HistoryEntry['ece']>;

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

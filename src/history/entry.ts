/**
 * One night of a nightly history (a JSON line of `output.history`). Fields are the numbers a
 * trend is drawn from; null where the check did not run. Built from a report by
 * `report/historyEntry.ts`.
 */
import { z } from 'zod';
import { VERDICT_STATUSES } from '../checks/types.js';

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
    verdict: z.enum(VERDICT_STATUSES),
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

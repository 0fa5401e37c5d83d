/**
 * One night of a nightly history (a JSON line of `output.history`). Fields are the numbers a
 * trend is drawn from; null where the check did not run. Built from a report by
 * `report/historyEntry.ts`.
 */
import { z } from 'zod';
import { nightlyValuesSchema } from '../checks/nightly.js';
import { VERDICT_STATUSES } from '../checks/types.js';

export const HISTORY_VERSION = 1;

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
    /** The checks' numbers (checks/nightly.ts), filled by each check from its section. */
    ...nightlyValuesSchema.shape,
  })
  .strict();

export type HistoryEntry = z.infer<typeof historyEntrySchema>;
export type Estimate = NonNullable<HistoryEntry['ece']>;

/**
 * One night of a nightly history (a JSON line of `output.history`). Fields are the numbers a
 * trend is drawn from; null where the check did not run. Built from a report by
 * `report/historyEntry.ts`.
 */
import { z } from 'zod';
import type { NightlyValues } from '../checks/nightly.js';
import { type CheckList, nightlyShape } from '../checks/list.js';
import { VERDICT_STATUSES } from '../checks/types.js';

export const HISTORY_VERSION = 1;

/** A history line's own fields; the checks' numbers join them (`historyEntrySchema`). */
const ownFields = z.object({
  v: z.literal(HISTORY_VERSION),
  /** When the night's report was built (ISO 8601, UTC). */
  date: z.iso.datetime(),
  /** Commit the workflow ran on (GITHUB_SHA), null outside CI. */
  commit: z.string().nullable(),
  model: z.string().min(1),
  digest: z.string().nullable(),
  verdict: z.enum(VERDICT_STATUSES),
});

/** A history line's schema: its own fields and every registered check's numbers. */
export function historyEntrySchema(checks: CheckList): z.ZodType<HistoryEntry> {
  // The checks' numbers (`Check.nightly`), filled by each check from its section.
  return ownFields.extend(nightlyShape(checks)).strict() as unknown as z.ZodType<HistoryEntry>;
}

export type HistoryEntry = z.infer<typeof ownFields> & NightlyValues;

/** The night of a line: its UTC calendar day ("2026-10-01"). */
export function nightOf(entry: HistoryEntry): string {
  return entry.date.slice(0, 10);
}

/**
 * One line per model and night: a second run on the same night replaces that night's line (the
 * latest measurement of the night stands), so the history counts nights, not runs. Kept in
 * file order.
 */
export function oneLinePerNight(entries: readonly HistoryEntry[]): HistoryEntry[] {
  const last = new Map<string, number>();
  entries.forEach((entry, i) => {
    last.set(`${entry.model}\n${nightOf(entry)}`, i);
  });
  return entries.filter((entry, i) => last.get(`${entry.model}\n${nightOf(entry)}`) === i);
}

import type { SampleStatus } from './schema.js';

/** How many call records ended with each status. */
export interface StatusCounts {
  total: number;
  ok: number;
  invalid: number;
  timeout: number;
  error: number;
}

export function emptyStatusCounts(): StatusCounts {
  return { total: 0, ok: 0, invalid: 0, timeout: 0, error: 0 };
}

/** Counts one outcome in `counts` (mutated, for tallies built in one pass). */
export function countStatus(counts: StatusCounts, status: SampleStatus): void {
  counts.total++;
  counts[status]++;
}

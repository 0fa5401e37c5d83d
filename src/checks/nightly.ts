/**
 * The checks' numbers on a line of the nightly history (`output.history`), one place for all
 * checks, like the headline: each check fills its own fields from its section
 * (`Check.report.nightly`). Null where the check did not run or did not produce the number.
 */
import { z } from 'zod';
import { interval, num, percent } from '../text/format.js';

const finite = z.number().refine(Number.isFinite, 'expected a finite number');
const estimate = z.object({ value: finite, low: finite, high: finite }).strict();

export const nightlyValuesSchema = z.object({
  /** Dragon: ECE with its 95% cluster-bootstrap interval over games. */
  ece: estimate.nullable(),
  brier: finite.nullable(),
  /** Dragon: share of moves into a wall the model had already been told about. */
  knownWallRate: finite.nullable(),
  personaAccuracy: finite.nullable(),
  /** Churn: mean accuracy over items, when churn ran. */
  churnAccuracy: finite.nullable(),
});

export type NightlyValues = z.infer<typeof nightlyValuesSchema>;

/** A night whose checks filled nothing. */
export const EMPTY_NIGHTLY: NightlyValues = {
  ece: null,
  brier: null,
  knownWallRate: null,
  personaAccuracy: null,
  churnAccuracy: null,
};

/** The history table's columns of these numbers, in the order of the fields. */
export const NIGHTLY_COLUMNS: readonly { header: string; cell(values: NightlyValues): string }[] = [
  {
    header: 'ECE [95% CI]',
    cell: ({ ece }) => (ece ? `${num(ece.value)} ${interval(ece.low, ece.high)}` : '–'),
  },
  { header: 'Brier', cell: (v) => num(v.brier) },
  { header: 'known-wall', cell: (v) => percent(v.knownWallRate) },
  { header: 'personas', cell: (v) => percent(v.personaAccuracy) },
  { header: 'churn', cell: (v) => percent(v.churnAccuracy) },
];

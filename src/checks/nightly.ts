/**
 * The checks' numbers on a line of the nightly history (`output.history`), one place for all
 * checks, like the headline: each check declares its fields (`Check.nightly`) and adds their
 * types to `NightlyValues`; the registry composes them. Null where the check did not run or
 * did not produce the number.
 */
import { z } from 'zod';

/** A night's numbers: each check's fields (a check's report code adds its own). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each check's nightly declaration
export interface NightlyValues {}

/** A column of the history table, for one of a check's numbers. */
export interface NightlyColumn {
  header: string;
  cell(values: NightlyValues): string;
}

/** A check's fields of a night of the history. */
export interface NightlyFields {
  /** Each field's schema, as a history line is read back. */
  schema: z.ZodRawShape;
  /** The values of a night whose check did not run. */
  empty: Partial<NightlyValues>;
  /** Its columns of the history table, in the order of its fields. */
  columns: readonly NightlyColumn[];
  /**
   * The values from a single-model run's section. Reads it defensively: a report from another
   * build gives null, never a crash.
   */
  read(section: unknown): Partial<NightlyValues>;
}

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

/** A finite number of a history line (a schema the checks' fields share). */
export const finiteNumber = finite;

/** An estimate with its interval on a history line. */
export const estimateSchema = z.object({ value: finite, low: finite, high: finite }).strict();

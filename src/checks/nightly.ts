/**
 * The checks' numbers on a line of the nightly history (`output.history`), one place for all
 * checks, like the headline: each check declares its fields (`Check.nightly`) and their
 * types; the list of checks composes them. Null where the check did not run or
 * did not produce the number.
 */
import { z } from 'zod';

/** A night's numbers: each check's fields, by name. */
export type NightlyValues = Record<string, unknown>;

/** A column of the history table, for one of a check's numbers. */
export interface NightlyColumn<Own extends object = object> {
  header: string;
  cell(values: Own): string;
}

/** A check's fields of a night of the history; `Own` is the type of its numbers. */
export interface NightlyFields<Own extends object = object> {
  /** Each field's schema, as a history line is read back. */
  schema: z.ZodRawShape;
  /** The values of a night whose check did not run. */
  empty: Own;
  /** Its columns of the history table, in the order of its fields. */
  columns: readonly NightlyColumn<Own>[];
  /**
   * Where its columns stand among the checks' (the order the numbers were first written on a
   * history line); absent: after those that say.
   */
  column?: number;
  /**
   * The values from a single-model run's section. Reads it defensively: a report from another
   * build gives null, never a crash.
   */
  read(section: unknown): Own;
}

/** A finite number of a history line (a schema the checks' fields share). */
export const finiteNumber = z.number().refine(Number.isFinite, 'expected a finite number');

/** An estimate with its interval on a history line. */
export const estimateSchema = z
  .object({ value: finiteNumber, low: finiteNumber, high: finiteNumber })
  .strict();

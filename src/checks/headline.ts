/**
 * The few numbers a workflow reads from the action's outputs, one place for all checks. Each
 * check declares its fields (`Check.headline`: schema, value when it did not run, how its
 * section gives them) and the type of its own numbers; the list of checks composes them.
 * Null when the check did not run or did not produce the number.
 */
import type { z } from 'zod';

/** A value of the headline: a number, a list of names, or null where it was not measured. */
export type HeadlineValue = number | string | readonly string[] | null;

/** The headline of report.json: each check's fields, by name. */
export type ReportHeadline = Record<string, HeadlineValue | undefined>;

/** A check's fields of the headline; `Own` is the type of its numbers. */
export interface HeadlineFields<Own extends object = object> {
  /** Each field's schema, as report.json's `headline` validates it. */
  schema: z.ZodRawShape;
  /** The values of a report whose check did not run. */
  empty: Own;
  /**
   * The values from the check's section. Reads it defensively: a report from another build
   * gives null, never a crash.
   */
  read(section: unknown): Own;
}

/**
 * One output of the action (action.yml `outputs`) a check fills from the headline: a number
 * (rounded for a workflow's shell), a string, or null (an empty output).
 */
export interface CheckOutput<Own extends object = object> {
  /** The output's name, as a workflow reads it (`steps.gate.outputs.<name>`). */
  name: string;
  /** action.yml's description of it (a test holds the two equal). */
  description: string;
  value(headline: Own): number | string | null;
}

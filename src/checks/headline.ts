/**
 * The few numbers a workflow reads from the action's outputs, one place for all checks. Each
 * check declares its fields (`Check.headline`: schema, value when it did not run, how its
 * section gives them) and adds their types to `ReportHeadline`; the registry composes them.
 * Null when the check did not run or did not produce the number.
 */
import type { z } from 'zod';

/** The headline of report.json: each check's fields (a check's report code adds its own). */
// biome-ignore lint/suspicious/noEmptyInterface: filled in by each check's headline declaration
export interface ReportHeadline {}

/** A check's fields of the headline. */
export interface HeadlineFields {
  /** Each field's schema, as report.json's `headline` validates it. */
  schema: z.ZodRawShape;
  /** The values of a report whose check did not run. */
  empty: Partial<ReportHeadline>;
  /**
   * The values from the check's section. Reads it defensively: a report from another build
   * gives null, never a crash.
   */
  read(section: unknown): Partial<ReportHeadline>;
}

/**
 * One output of the action (action.yml `outputs`) a check fills from the headline: a number
 * (rounded for a workflow's shell), a string, or null (an empty output).
 */
export interface CheckOutput {
  /** The output's name, as a workflow reads it (`steps.gate.outputs.<name>`). */
  name: string;
  /** action.yml's description of it (a test holds the two equal). */
  description: string;
  value(headline: ReportHeadline): number | string | null;
}

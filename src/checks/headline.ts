/**
 * The few numbers a workflow reads from the action's outputs, one place for all checks. Each
 * check fills its own fields from its section (`Check.report.headline`); the report composes
 * them. Null when the check did not run or did not produce the number.
 */
import { z } from 'zod';

const share = z.number().min(0).max(1);

export const headlineSchema = z.object({
  /** Churn: (reliably improved + reliably deteriorated) / items, by the gate's method. */
  churnRate: share.nullable(),
  /** Churn: items reliably worse on the candidate, by the gate's method. */
  deteriorated: z.number().int().min(0).nullable(),
  /** Churn: domains whose net reliable change opposes the aggregate Δ. */
  reversals: z.array(z.string()),
  /** Dragon: expected calibration error of each model. */
  eceBaseline: share.nullable(),
  eceCandidate: share.nullable(),
  /** Personas: attribution accuracy of the candidate (of the baseline in single-model mode). */
  personaAccuracy: share.nullable(),
});

export type ReportHeadline = z.infer<typeof headlineSchema>;

/** The headline of a report whose checks filled nothing. */
export const EMPTY_HEADLINE: ReportHeadline = {
  churnRate: null,
  deteriorated: null,
  reversals: [],
  eceBaseline: null,
  eceCandidate: null,
  personaAccuracy: null,
};

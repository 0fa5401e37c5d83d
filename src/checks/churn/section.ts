/** The `churn` part of report.json: plain JSON, rendered by src/report/sections/churn.ts. */
export interface ChurnSection {
  check: 'churn';
  /** Filled in by the churn check. */
  [metric: string]: unknown;
}

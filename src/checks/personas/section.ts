/** The `personas` part of report.json: plain JSON, rendered by src/report/sections/personas.ts. */
export interface PersonasSection {
  check: 'personas';
  /** Filled in by the personas check. */
  [metric: string]: unknown;
}

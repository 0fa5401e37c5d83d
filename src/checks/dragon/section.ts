/** The `dragon` part of report.json: plain JSON, rendered by src/report/sections/dragon.ts. */
export interface DragonSection {
  check: 'dragon';
  /** Filled in by the dragon check. */
  [metric: string]: unknown;
}

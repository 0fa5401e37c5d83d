/**
 * The speed check's part of report.html's data (plain JSON, built by ../pageData.ts, rendered
 * in the browser by ./part.ts). Types only, no imports: both sides read them.
 */

export interface SpeedPage {
  check: 'speed';
  /** The models of the run, baseline first. */
  models: string[];
  /**
   * Per item: its median decode tokens/s and output tokens per answer under each model and,
   * with two models, candidate ÷ baseline decode time per token; the most slowed items first.
   */
  items: { columns: string[]; rows: string[][] };
  /** Items left out of the table beyond the first ones. */
  moreItems: number;
  /** Per item timed on both models: median decode tokens/s of the baseline, of the candidate. */
  points: [number, number][];
  notes: string[];
}

/**
 * The dragon check's part of report.html's data (plain JSON, built by ../report/page.ts,
 * rendered in the browser by ./part.ts). Types only, no imports: both sides read them.
 */

/** A cell as [row, col]; rows 0–7 top to bottom, columns 0–7 left to right. */
export type PageCell = [number, number];

/** A wall as its upper or left cell and the side it is on: "r" (right) or "d" (down). */
export type PageWall = [number, number, 'r' | 'd'];

/** One decision of a game, replayed: what was asked, said and what happened. */
export interface DragonPageStep {
  /** Turn (1-based). */
  t: number;
  /** Move: up, down, left, right, pass. */
  m: string;
  /** Stated confidence that the move advances; null for an invalid answer. */
  c: number | null;
  /** Outcome of the step: moved, wall, known_wall, pass, treasure, wounded, won, killed. */
  o: string;
  /** Where the player stands after the decision (back at the camp after a wound). */
  at: PageCell;
  /** Where the dragon is after the decision, null while it sleeps. */
  d: PageCell | null;
  /** The wall this step bumped into, when it discovered one. */
  w?: PageWall;
  /** The awake dragon caught the player after the turn: wounded or killed. */
  caught?: string;
  /** Request status when not ok (invalid, timeout, error: the decision acted as pass). */
  s?: string;
}

export interface DragonPagePlay {
  model: string;
  role: string;
  /** From the game record: won, lost, capped, invalid; null for an unfinished game. */
  result: string | null;
  turns: number | null;
  wounds: number | null;
  cellsVisited: number | null;
  treasureFound: boolean | null;
  /** Share of moves that advanced, and the mean stated confidence over moves. */
  success: number | null;
  meanConfidence: number | null;
  /** Where the dragon woke (the roar location) and at which step. */
  roar: { step: number; at: PageCell } | null;
  steps: DragonPageStep[];
  /** Why the replay stops early or the positions are not drawn, in a sentence; null when whole. */
  note: string | null;
}

export interface DragonPageGame {
  seed: number;
  camp: PageCell;
  treasure: PageCell;
  walls: PageWall[];
  /** One play per model of the run, baseline first. */
  plays: DragonPagePlay[];
}

export interface DragonPage {
  check: 'dragon';
  protocol: string;
  walls: number;
  hints: string;
  /** Columns: each series (models, then reference players); rows: the calibration numbers. */
  overview: { columns: string[]; rows: string[][] };
  games: DragonPageGame[];
  notes: string[];
}

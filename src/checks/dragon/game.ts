/**
 * The game engine: one decision at a time, rules of protocol dragon-calibration/1. State is a
 * plain object so a test can build any position; `playDecision` mutates it and says what
 * happened.
 */
import {
  type Cell,
  cellAt,
  cellIndex,
  DIRECTIONS,
  type Direction,
  edgeId,
  edgeSide,
  type Move,
  manhattan,
  neighbour,
  sameCell,
  type WallSide,
} from './geometry.js';
import type { Maze } from './maze.js';
import {
  BOARD_SIZE,
  LETHAL_WOUNDS,
  MAX_DECISIONS,
  MAX_STEPS_CARRYING,
  MAX_TURNS,
  STEPS_BY_WOUNDS,
  WAKE_DISTANCE,
} from './protocol.js';
import type { DragonOutcome } from './records.js';

/** `invalid`: stopped by the session after a run of invalid answers (not a rule of play). */
export type GameResult = 'won' | 'lost' | 'capped' | 'invalid';

export interface GameState {
  readonly maze: Maze;
  player: Cell;
  wounds: number;
  carrying: boolean;
  /** Ever picked up, even if it was lost again. */
  treasureFound: boolean;
  dragon: Cell;
  dragonAwake: boolean;
  /** Where the player stood when the dragon woke; shown to the player from then on. */
  roarLocation: Cell | null;
  /** Interior edges the player has bumped into. The border is known from the start. */
  knownWalls: Set<number>;
  /** Cell indices (row-major) the player has stood on. */
  visited: Set<number>;
  /** 1-based. */
  turn: number;
  stepsLeft: number;
  decisions: number;
  result: GameResult | null;
}

/** What one decision did. */
export interface DecisionReport {
  /** What the step itself did (a caught player is reported in `caught`). */
  outcome: DragonOutcome;
  /** The step reached a free cell (the calibration event); null for pass. */
  advanced: boolean | null;
  /** The awake dragon reached the player after the turn this decision ended. */
  caught: 'wounded' | 'killed' | null;
  turnEnded: boolean;
}

export function stepAllowance(wounds: number, carrying: boolean): number {
  const base = STEPS_BY_WOUNDS[Math.min(wounds, STEPS_BY_WOUNDS.length - 1)] as number;
  return carrying ? Math.min(base, MAX_STEPS_CARRYING) : base;
}

export function newGame(maze: Maze): GameState {
  return {
    maze,
    player: { ...maze.camp },
    wounds: 0,
    carrying: false,
    treasureFound: false,
    dragon: { ...maze.treasure },
    dragonAwake: false,
    roarLocation: null,
    knownWalls: new Set(),
    visited: new Set([cellIndex(maze.camp)]),
    turn: 1,
    stepsLeft: stepAllowance(0, false),
    decisions: 0,
    result: null,
  };
}

/** Border or a wall the player has discovered. */
export function isKnownBlocked(state: GameState, cell: Cell, move: Move): boolean {
  if (move === 'pass') return false;
  const id = edgeId(cell, move);
  return id === null || state.knownWalls.has(id);
}

export function playDecision(state: GameState, move: Move): DecisionReport {
  if (state.result) throw new Error('playDecision: the game is over');
  const report = playerStep(state, move);
  if (report.turnEnded && !state.result) report.caught = dragonFlies(state);
  state.decisions++;
  if (!state.result && state.decisions >= MAX_DECISIONS) state.result = 'capped';
  if (report.turnEnded && !state.result) {
    state.turn++;
    if (state.turn > MAX_TURNS) state.result = 'capped';
    state.stepsLeft = stepAllowance(state.wounds, state.carrying);
  }
  return report;
}

function playerStep(state: GameState, move: Move): DecisionReport {
  const ended = (outcome: DragonOutcome, advanced: boolean | null): DecisionReport => ({
    outcome,
    advanced,
    caught: null,
    turnEnded: true,
  });
  if (move === 'pass') return ended('pass', null);

  const id = edgeId(state.player, move);
  if (id === null || state.knownWalls.has(id)) return ended('known_wall', false);
  if (state.maze.walls.has(id)) {
    state.knownWalls.add(id);
    return ended('wall', false);
  }

  const target = neighbour(state.player, move) as Cell;
  state.player = target;
  state.visited.add(cellIndex(target));
  const inCamp = sameCell(target, state.maze.camp);

  if (sameCell(target, state.dragon) && !inCamp) {
    return ended(wound(state) ? 'killed' : 'wounded', true);
  }
  if (!state.dragonAwake && manhattan(target, state.dragon) <= WAKE_DISTANCE) wake(state);
  if (!state.carrying && sameCell(target, state.maze.treasure)) {
    state.carrying = true;
    state.treasureFound = true;
    if (!state.dragonAwake) wake(state);
    return ended('treasure', true);
  }
  if (inCamp && state.carrying) {
    state.result = 'won';
    return ended('won', true);
  }
  state.stepsLeft--;
  return { outcome: 'moved', advanced: true, caught: null, turnEnded: state.stepsLeft <= 0 };
}

function wake(state: GameState): void {
  state.dragonAwake = true;
  state.roarLocation = { ...state.player };
}

/** One wound: back to camp, treasure back in its room. True when it kills. */
function wound(state: GameState): boolean {
  state.wounds++;
  state.carrying = false;
  if (state.wounds >= LETHAL_WOUNDS) {
    state.result = 'lost';
    return true;
  }
  state.player = { ...state.maze.camp };
  return false;
}

/**
 * After the player's turn an awake dragon moves one cell, ignoring walls: toward the player,
 * or toward the treasure room while the player shelters in the camp.
 */
function dragonFlies(state: GameState): 'wounded' | 'killed' | null {
  if (!state.dragonAwake) return null;
  const inCamp = sameCell(state.player, state.maze.camp);
  state.dragon = dragonStep(state.dragon, inCamp ? state.maze.treasure : state.player);
  if (!inCamp && sameCell(state.dragon, state.player)) return wound(state) ? 'killed' : 'wounded';
  return null;
}

/**
 * One cell toward the target along the axis with the larger remaining distance; on a tie the
 * row changes first. Staying put when already there.
 */
export function dragonStep(from: Cell, target: Cell): Cell {
  const rows = target.row - from.row;
  const cols = target.col - from.col;
  if (rows === 0 && cols === 0) return { ...from };
  if (Math.abs(rows) >= Math.abs(cols)) return { row: from.row + Math.sign(rows), col: from.col };
  return { row: from.row, col: from.col + Math.sign(cols) };
}

/**
 * What the player is allowed to know at a decision: never the seed, the treasure, the dragon
 * or an undiscovered wall.
 */
export interface Observation {
  boardSize: number;
  turn: number;
  position: Cell;
  camp: Cell;
  wounds: number;
  lethalWounds: number;
  stepsLeft: number;
  carrying: boolean;
  /** Row-major order. */
  visited: Cell[];
  /** Discovered interior walls, by edge number. */
  knownWalls: WallSide[];
  /** Directions from the current cell blocked by the border or a discovered wall. */
  blockedHere: Direction[];
  roarLocation: Cell | null;
}

export function observe(state: GameState): Observation {
  return {
    boardSize: BOARD_SIZE,
    turn: state.turn,
    position: { ...state.player },
    camp: { ...state.maze.camp },
    wounds: state.wounds,
    lethalWounds: LETHAL_WOUNDS,
    stepsLeft: state.stepsLeft,
    carrying: state.carrying,
    visited: [...state.visited].sort((a, b) => a - b).map(cellAt),
    knownWalls: [...state.knownWalls].sort((a, b) => a - b).map(edgeSide),
    blockedHere: DIRECTIONS.filter((d) => isKnownBlocked(state, state.player, d)),
    roarLocation: state.roarLocation ? { ...state.roarLocation } : null,
  };
}

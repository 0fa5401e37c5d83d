/**
 * What the player is allowed to know at a decision: never the seed, the treasure, the dragon
 * or an undiscovered wall.
 */
import {
  type Cell,
  cellAt,
  DIRECTIONS,
  type Direction,
  edgeSide,
  type WallSide,
} from './geometry.js';
import { type GameState, isKnownBlocked } from './game.js';
import { BOARD_SIZE, LETHAL_WOUNDS } from './protocol.js';

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

/**
 * Every rule of the game as a named constant. Changing any of them changes what a game
 * means, so it is a new protocol version (docs/dragon-protocol.md describes version 1).
 */

export const PROTOCOL_VERSION = 'dragon-calibration/1';

/** The board is square: rows 0–7 top to bottom, columns 0–7 left to right. */
export const BOARD_SIZE = 8;
export const CELL_COUNT = BOARD_SIZE * BOARD_SIZE;

/** Edges between orthogonally adjacent cells: 8 rows × 7 + 7 rows × 8. */
export const INTERIOR_EDGE_COUNT = 2 * BOARD_SIZE * (BOARD_SIZE - 1);

export const DEFAULT_WALLS = 40;

/** A connected board keeps at least a spanning tree (CELL_COUNT − 1 open edges). */
export const MAX_WALLS = INTERIOR_EDGE_COUNT - (CELL_COUNT - 1);

/** Manhattan distance from the camp below which the treasure is never placed. */
export const MIN_TREASURE_DISTANCE = 3;

/** Steps per turn by wounds taken (0, 1, 2). */
export const STEPS_BY_WOUNDS: readonly number[] = [8, 6, 4];

/** The treasure is heavy: never more steps than this while carrying it. */
export const MAX_STEPS_CARRYING = 4;

/** The sleeping dragon wakes when the player comes this close (Manhattan distance). */
export const WAKE_DISTANCE = 2;

/** The wound that kills. */
export const LETHAL_WOUNDS = 3;

export const MAX_TURNS = 150;
export const MAX_DECISIONS = 300;

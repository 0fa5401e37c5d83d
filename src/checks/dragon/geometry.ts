/**
 * Cells, directions and the numbering of interior edges. The edge numbering is part of the
 * protocol: maze generation shuffles edges in this order, so another implementation must
 * number them the same way to reproduce the mazes.
 */
import { BOARD_SIZE } from './protocol.js';

export interface Cell {
  row: number;
  col: number;
}

export const DIRECTIONS = ['up', 'down', 'left', 'right'] as const;
export type Direction = (typeof DIRECTIONS)[number];
export type Move = Direction | 'pass';
export const MOVES: readonly Move[] = [...DIRECTIONS, 'pass'];

const DELTA: Record<Direction, { row: number; col: number }> = {
  up: { row: -1, col: 0 },
  down: { row: 1, col: 0 },
  left: { row: 0, col: -1 },
  right: { row: 0, col: 1 },
};

/** Row-major index: row × 8 + col. */
export function cellIndex(cell: Cell): number {
  return cell.row * BOARD_SIZE + cell.col;
}

export function cellAt(index: number): Cell {
  return { row: Math.floor(index / BOARD_SIZE), col: index % BOARD_SIZE };
}

export function sameCell(a: Cell, b: Cell): boolean {
  return a.row === b.row && a.col === b.col;
}

export function manhattan(a: Cell, b: Cell): number {
  return Math.abs(a.row - b.row) + Math.abs(a.col - b.col);
}

export function onBoard(cell: Cell): boolean {
  return cell.row >= 0 && cell.row < BOARD_SIZE && cell.col >= 0 && cell.col < BOARD_SIZE;
}

/** The neighbour in that direction, or null past the border. */
export function neighbour(cell: Cell, direction: Direction): Cell | null {
  const next = { row: cell.row + DELTA[direction].row, col: cell.col + DELTA[direction].col };
  return onBoard(next) ? next : null;
}

/** Horizontal edges (between a cell and its right neighbour) come first. */
const HORIZONTAL_EDGES = BOARD_SIZE * (BOARD_SIZE - 1);

/**
 * Edge numbering:
 * - 0…55: between (r, c) and (r, c+1), numbered r × 7 + c;
 * - 56…111: between (r, c) and (r+1, c), numbered 56 + r × 8 + c.
 * Null for the border (no neighbour in that direction).
 */
export function edgeId(cell: Cell, direction: Direction): number | null {
  const other = neighbour(cell, direction);
  if (!other) return null;
  const first = direction === 'up' || direction === 'left' ? other : cell;
  if (direction === 'left' || direction === 'right') {
    return first.row * (BOARD_SIZE - 1) + first.col;
  }
  return HORIZONTAL_EDGES + first.row * BOARD_SIZE + first.col;
}

/** A wall as its upper/left cell and the side it sits on: 'right' or 'down'. */
export interface WallSide {
  cell: Cell;
  side: 'right' | 'down';
}

export function edgeSide(id: number): WallSide {
  if (id < HORIZONTAL_EDGES) {
    return {
      cell: { row: Math.floor(id / (BOARD_SIZE - 1)), col: id % (BOARD_SIZE - 1) },
      side: 'right',
    };
  }
  const rest = id - HORIZONTAL_EDGES;
  return { cell: { row: Math.floor(rest / BOARD_SIZE), col: rest % BOARD_SIZE }, side: 'down' };
}

/** The two cells an edge separates, upper/left first. */
export function edgeCells(id: number): [Cell, Cell] {
  const { cell, side } = edgeSide(id);
  const other = neighbour(cell, side) as Cell;
  return [cell, other];
}

/** "(2,3)" — the notation the prompt, the maze command and the docs share. */
export function formatCell(cell: Cell): string {
  return `(${cell.row},${cell.col})`;
}

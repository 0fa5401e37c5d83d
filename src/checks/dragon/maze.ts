/**
 * Seeded maze generation, protocol dragon-calibration/1. One mulberry32 generator
 * (src/stats/prng.ts) seeded with the maze seed, drawn in exactly this order:
 *
 * 1. camp = cell number `int(64)` (row-major);
 * 2. treasure = `int(k)`-th of the k cells at Manhattan distance ≥ 3 from the camp, listed in
 *    row-major order;
 * 3. the 112 interior edges, listed by edge number (geometry.ts), are shuffled by Fisher–Yates
 *    from the last index down (`j = int(i + 1)`);
 * 4. edges are taken in shuffled order: each becomes a wall if every cell can still reach
 *    every other, until the requested number of walls is placed.
 *
 * `int(n)` is `floor(next() × n)`. No other draw is made.
 */
import { InputError } from '../../errors.js';
import { createRng } from '../../stats/prng.js';
import {
  type Cell,
  cellAt,
  cellIndex,
  DIRECTIONS,
  edgeId,
  manhattan,
  neighbour,
} from './geometry.js';
import { CELL_COUNT, INTERIOR_EDGE_COUNT, MAX_WALLS, MIN_TREASURE_DISTANCE } from './protocol.js';

export interface Maze {
  seed: number;
  camp: Cell;
  treasure: Cell;
  /** Interior edge numbers that are walls. */
  walls: ReadonlySet<number>;
}

export function generateMaze(seed: number, wallCount: number): Maze {
  if (!Number.isInteger(wallCount) || wallCount < 0 || wallCount > MAX_WALLS) {
    throw new InputError(
      `dragon.walls: expected an integer from 0 to ${MAX_WALLS} (more walls would cut the maze in two), got ${wallCount}`,
    );
  }
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) {
    throw new InputError(`dragon seed: expected an integer from 0 to 4294967295, got ${seed}`);
  }
  const rng = createRng(seed);
  const camp = cellAt(rng.int(CELL_COUNT));
  const treasureCandidates: Cell[] = [];
  for (let index = 0; index < CELL_COUNT; index++) {
    const cell = cellAt(index);
    if (manhattan(cell, camp) >= MIN_TREASURE_DISTANCE) treasureCandidates.push(cell);
  }
  const treasure = treasureCandidates[rng.int(treasureCandidates.length)] as Cell;

  const order = rng.shuffle(Array.from({ length: INTERIOR_EDGE_COUNT }, (_, id) => id));
  const walls = new Set<number>();
  for (const id of order) {
    if (walls.size === wallCount) break;
    walls.add(id);
    if (!isConnected(walls)) walls.delete(id);
  }
  return { seed, camp, treasure, walls };
}

/** A maze from given parts (tests, constructed positions). */
export function mazeFrom(camp: Cell, treasure: Cell, walls: Iterable<number> = []): Maze {
  return { seed: -1, camp, treasure, walls: new Set(walls) };
}

/** Per cell, its neighbours and the edges to them (built once; the search runs thousands of times). */
const ADJACENCY: readonly (readonly { cell: number; edge: number }[])[] = Array.from(
  { length: CELL_COUNT },
  (_, index) => {
    const cell = cellAt(index);
    return DIRECTIONS.flatMap((direction) => {
      const next = neighbour(cell, direction);
      return next ? [{ cell: cellIndex(next), edge: edgeId(cell, direction) as number }] : [];
    });
  },
);

/** Every cell reachable from cell 0 through open edges. */
export function isConnected(walls: ReadonlySet<number>): boolean {
  const seen = new Uint8Array(CELL_COUNT);
  const stack = [0];
  seen[0] = 1;
  let reached = 1;
  while (stack.length > 0) {
    for (const link of ADJACENCY[stack.pop() as number] ?? []) {
      if (seen[link.cell] || walls.has(link.edge)) continue;
      seen[link.cell] = 1;
      reached++;
      stack.push(link.cell);
    }
  }
  return reached === CELL_COUNT;
}

/** Walls in ascending edge order. */
export function sortedWalls(maze: Maze): number[] {
  return [...maze.walls].sort((a, b) => a - b);
}

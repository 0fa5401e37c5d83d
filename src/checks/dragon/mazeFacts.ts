/** The facts that identify a generated maze; the protocol document lists them for seeds 0–9. */
import { createHash } from 'node:crypto';
import type { Cell, WallSide } from './geometry.js';
import { edgeSide } from './geometry.js';
import { generateMaze, sortedWalls } from './maze.js';
import { PROTOCOL_VERSION } from './protocol.js';

export interface MazeFacts {
  protocol: string;
  seed: number;
  camp: Cell;
  treasure: Cell;
  wallCount: number;
  /** Upper/left cell and side, in edge-number order. */
  walls: WallSide[];
  /** Edge numbers in ascending order. */
  wallEdges: number[];
  /** SHA-256 (hex) of the ascending edge numbers joined by commas, e.g. "0,5,17". */
  wallsSha256: string;
}

export function mazeFacts(seed: number, wallCount: number): MazeFacts {
  const maze = generateMaze(seed, wallCount);
  const wallEdges = sortedWalls(maze);
  return {
    protocol: PROTOCOL_VERSION,
    seed,
    camp: maze.camp,
    treasure: maze.treasure,
    wallCount: wallEdges.length,
    walls: wallEdges.map(edgeSide),
    wallEdges,
    wallsSha256: createHash('sha256').update(wallEdges.join(',')).digest('hex'),
  };
}

/**
 * `model-gate dragon maze --seed N [--json]`: a maze as a drawing or as JSON, so a reader can
 * check the generator against the protocol document or another implementation.
 */
import { createHash } from 'node:crypto';
import { type Cell, cellIndex, edgeId, edgeSide, sameCell, type WallSide } from './geometry.js';
import { generateMaze, sortedWalls } from './maze.js';
import { BOARD_SIZE, PROTOCOL_VERSION } from './protocol.js';

/** The facts that identify a generated maze; the protocol document lists them for seeds 0–9. */
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

/**
 * JSON, or a drawing: each cell is three characters wide; `|` and `---` are walls, `C` the
 * camp, `T` the treasure (where the dragon sleeps).
 */
export function renderMaze(seed: number, walls: number, json: boolean): string {
  const { wallEdges, ...shown } = mazeFacts(seed, walls);
  if (json) return `${JSON.stringify(shown, null, 2)}\n`;
  const { camp, treasure } = shown;
  const isWall = (row: number, col: number, side: 'right' | 'down') => {
    const id = edgeId({ row, col }, side);
    return id === null || wallEdges.includes(id);
  };
  const columns = Array.from({ length: BOARD_SIZE }, (_, c) => ` ${c}  `).join('');
  const lines = [`    ${columns.trimEnd()}`, `   +${'---+'.repeat(BOARD_SIZE)}`];
  for (let row = 0; row < BOARD_SIZE; row++) {
    let cells = ` ${row} |`;
    let below = '   +';
    for (let col = 0; col < BOARD_SIZE; col++) {
      const cell = { row, col };
      const mark = sameCell(cell, camp) ? 'C' : sameCell(cell, treasure) ? 'T' : ' ';
      cells += ` ${mark} ${isWall(row, col, 'right') ? '|' : ' '}`;
      below += `${isWall(row, col, 'down') ? '---' : '   '}+`;
    }
    lines.push(cells, below);
  }
  lines.push(
    '',
    `${shown.protocol}, seed ${seed}: camp C (${camp.row},${camp.col}) [cell ${cellIndex(camp)}], treasure T (${treasure.row},${treasure.col}) [cell ${cellIndex(treasure)}], ${shown.wallCount} walls`,
    `walls (edge numbers): ${wallEdges.join(' ')}`,
    `walls SHA-256: ${shown.wallsSha256}`,
  );
  return `${lines.join('\n')}\n`;
}

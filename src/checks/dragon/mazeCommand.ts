/**
 * `model-gate dragon maze --seed N [--json]`: a maze as a drawing or as JSON, so a reader can
 * check the generator against the protocol document or another implementation.
 */
import { cellIndex, edgeId, sameCell } from './geometry.js';
import { generateMaze } from './maze.js';
import { mazeFacts } from './mazeFacts.js';
import { BOARD_SIZE } from './protocol.js';

export function renderMaze(seed: number, walls: number, json: boolean): string {
  const facts = mazeFacts(seed, walls);
  if (json) {
    const { wallEdges: _edges, ...shown } = facts;
    return `${JSON.stringify(shown, null, 2)}\n`;
  }
  return drawMaze(seed, walls);
}

/**
 * Each cell is three characters wide; `|` and `---` are walls, `C` the camp, `T` the
 * treasure (where the dragon sleeps).
 */
function drawMaze(seed: number, walls: number): string {
  const maze = generateMaze(seed, walls);
  const facts = mazeFacts(seed, walls);
  const isWall = (row: number, col: number, side: 'right' | 'down') => {
    const id = edgeId({ row, col }, side);
    return id === null || maze.walls.has(id);
  };
  const lines: string[] = [];
  const columns = Array.from({ length: BOARD_SIZE }, (_, c) => ` ${c}  `).join('');
  lines.push(`    ${columns.trimEnd()}`);
  lines.push(`   +${'---+'.repeat(BOARD_SIZE)}`);
  for (let row = 0; row < BOARD_SIZE; row++) {
    let cells = ` ${row} |`;
    let below = '   +';
    for (let col = 0; col < BOARD_SIZE; col++) {
      const cell = { row, col };
      const mark = sameCell(cell, maze.camp) ? 'C' : sameCell(cell, maze.treasure) ? 'T' : ' ';
      cells += ` ${mark} ${isWall(row, col, 'right') ? '|' : ' '}`;
      below += `${isWall(row, col, 'down') ? '---' : '   '}+`;
    }
    lines.push(cells, below);
  }
  lines.push(
    '',
    `${facts.protocol}, seed ${seed}: camp C (${maze.camp.row},${maze.camp.col}) [cell ${cellIndex(maze.camp)}], treasure T (${maze.treasure.row},${maze.treasure.col}) [cell ${cellIndex(maze.treasure)}], ${facts.wallCount} walls`,
    `walls (edge numbers): ${facts.wallEdges.join(' ')}`,
    `walls SHA-256: ${facts.wallsSha256}`,
  );
  return `${lines.join('\n')}\n`;
}

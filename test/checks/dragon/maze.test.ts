import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  cellAt,
  edgeCells,
  edgeId,
  edgeSide,
  manhattan,
} from '../../../src/checks/dragon/geometry.js';
import { generateMaze, isConnected, sortedWalls } from '../../../src/checks/dragon/maze.js';
import { mazeFacts, renderMaze } from '../../../src/checks/dragon/mazeCommand.js';
import { MAX_WALLS } from '../../../src/checks/dragon/protocol.js';
import { InputError } from '../../../src/errors.js';

const doc = readFileSync(new URL('../../../docs/dragon-protocol.md', import.meta.url), 'utf8');

describe('edge numbering', () => {
  it('numbers the 112 interior edges once each, as the protocol document says', () => {
    const seen = new Set<number>();
    for (let index = 0; index < 64; index++) {
      const cell = cellAt(index);
      for (const d of ['right', 'down'] as const) {
        const id = edgeId(cell, d);
        if (id !== null) seen.add(id);
      }
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 112 }, (_, i) => i));
    // (2,3)|(2,4) is 2·7 + 3 = 17; (2,3)/(3,3) is 56 + 2·8 + 3 = 75; both sides agree.
    expect(edgeId({ row: 2, col: 3 }, 'right')).toBe(17);
    expect(edgeId({ row: 2, col: 4 }, 'left')).toBe(17);
    expect(edgeId({ row: 2, col: 3 }, 'down')).toBe(75);
    expect(edgeId({ row: 3, col: 3 }, 'up')).toBe(75);
    expect(edgeId({ row: 0, col: 3 }, 'up')).toBeNull();
    expect(edgeSide(75)).toEqual({ cell: { row: 2, col: 3 }, side: 'down' });
    expect(edgeCells(17)).toEqual([
      { row: 2, col: 3 },
      { row: 2, col: 4 },
    ]);
  });
});

describe('maze generation', () => {
  it('1,000 seeds: connected, the configured wall count, treasure at distance ≥ 3', () => {
    for (let seed = 0; seed < 1000; seed++) {
      const maze = generateMaze(seed, 40);
      if (maze.walls.size !== 40 || !isConnected(maze.walls)) {
        throw new Error(
          `seed ${seed}: ${maze.walls.size} walls, connected ${isConnected(maze.walls)}`,
        );
      }
      if (manhattan(maze.camp, maze.treasure) < 3)
        throw new Error(`seed ${seed}: treasure too close`);
    }
  });

  it('reaches the maximum of 49 walls (a spanning tree) and refuses 50', () => {
    for (let seed = 0; seed < 50; seed++) {
      const maze = generateMaze(seed, MAX_WALLS);
      expect(maze.walls.size).toBe(49);
      expect(isConnected(maze.walls)).toBe(true);
    }
    expect(() => generateMaze(0, 50)).toThrow(InputError);
    expect(() => generateMaze(0, 50)).toThrow(/dragon\.walls/);
  });

  it('the same seed gives the same maze; other seeds other mazes', () => {
    expect(sortedWalls(generateMaze(12345, 40))).toEqual(sortedWalls(generateMaze(12345, 40)));
    expect(mazeFacts(3, 40).wallsSha256).not.toBe(mazeFacts(4, 40).wallsSha256);
  });

  it('places fewer walls by stopping earlier in the same shuffled order', () => {
    // The walls of a 20-wall maze are the first 20 accepted of the 40-wall maze.
    const small = generateMaze(8, 20).walls;
    const large = generateMaze(8, 40).walls;
    for (const id of small) expect(large.has(id)).toBe(true);
  });

  it('matches the golden facts of docs/dragon-protocol.md for seeds 0–9', () => {
    const rows = [
      ...doc.matchAll(
        /^\| (\d) +\| \((\d),(\d)\) +\| \((\d),(\d)\) +\| (\d+) +\| `([0-9a-f]{64})` +\|$/gm,
      ),
    ];
    expect(rows).toHaveLength(10);
    for (const row of rows) {
      const facts = mazeFacts(Number(row[1]), 40);
      expect(facts.camp).toEqual({ row: Number(row[2]), col: Number(row[3]) });
      expect(facts.treasure).toEqual({ row: Number(row[4]), col: Number(row[5]) });
      expect(facts.wallCount).toBe(Number(row[6]));
      expect(facts.wallsSha256).toBe(row[7]);
    }
  });

  it('draws seed 0 exactly as the protocol document shows it', () => {
    const drawing = doc.slice(doc.indexOf('```\n     0   1') + 4);
    const expected = drawing.slice(0, drawing.indexOf('```'));
    expect(renderMaze(0, 40, false).startsWith(expected)).toBe(true);
    const edges = /walls \(edge numbers\): `([\d\s]+)`/.exec(doc)?.[1]?.split(/\s+/).map(Number);
    expect(sortedWalls(generateMaze(0, 40))).toEqual(edges);
  });

  it('prints JSON with camp, treasure, walls as cell + side, and the count', () => {
    const json = JSON.parse(renderMaze(0, 40, true));
    expect(json.camp).toEqual({ row: 4, col: 7 });
    expect(json.treasure).toEqual({ row: 2, col: 3 });
    expect(json.wallCount).toBe(40);
    expect(json.walls).toHaveLength(40);
    // Edge 12 = 1 × 7 + 5 separates (1,5) and (1,6).
    expect(json.walls[0]).toEqual({ cell: { row: 1, col: 5 }, side: 'right' });
    expect(json.protocol).toBe('dragon-calibration/1');
  });
});

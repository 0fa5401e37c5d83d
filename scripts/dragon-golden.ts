/**
 * Prints the golden facts of docs/dragon-protocol.md (seeds 0–9, 40 walls, and seed 0 in
 * full) from the engine. Run after a deliberate protocol change, paste, and bump the protocol
 * version: the tests compare the engine with the document, so the two can never drift apart
 * silently.
 *
 *   npx tsx scripts/dragon-golden.ts
 */
import { renderMaze } from '../src/checks/dragon/mazeCommand.js';
import { mazeFacts } from '../src/checks/dragon/mazeCommand.js';

const rows = [
  '| seed | camp  | treasure | walls | walls SHA-256                                                      |',
  '| ---- | ----- | -------- | ----- | ------------------------------------------------------------------ |',
];
for (let seed = 0; seed <= 9; seed++) {
  const f = mazeFacts(seed, 40);
  rows.push(
    `| ${seed}    | (${f.camp.row},${f.camp.col}) | (${f.treasure.row},${f.treasure.col})    | ${f.wallCount}    | \`${f.wallsSha256}\` |`,
  );
}
console.log(rows.join('\n'));
const zero = mazeFacts(0, 40);
console.log(`\nSeed 0 walls: ${JSON.stringify(zero)}`);
console.log(renderMaze(0, 40, false));

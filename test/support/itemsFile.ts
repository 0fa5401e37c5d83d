/** A churn items file of any size, for tests that plan from one. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Writes `count` four-choice items (q0, q1, …; answer B) spread over `domains` domains as JSON
 * Lines in a fresh folder named from `prefix`; returns the folder and the file.
 */
export function writeItemsFile(
  prefix: string,
  count: number,
  domains: number,
): { dir: string; items: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  const items = path.join(dir, 'items.jsonl');
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      id: `q${i}`,
      domain: `d${i % domains}`,
      question: `Q${i}?`,
      choices: ['a', 'b', 'c', 'd'],
      answer: 'B',
    }),
  );
  writeFileSync(items, `${lines.join('\n')}\n`);
  return { dir, items };
}

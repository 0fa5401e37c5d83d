import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The import statements of a source file, in order. */
function imports(file: string): string[] {
  return readFileSync(path.join(root, file), 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('import '));
}

describe('entry points', () => {
  it('set the engine to favour memory before any other module runs (imported first)', () => {
    for (const entry of ['src/cli.ts', 'src/index.ts']) {
      expect(imports(entry)[0], entry).toBe("import './favourMemory.js';");
    }
    // Nothing else of ours is imported on the way, so nothing of ours runs before it.
    expect(imports('src/favourMemory.ts')).toEqual([
      "import { favourMemory } from './engineMode.js';",
    ]);
    expect(imports('src/engineMode.ts')).toEqual([
      "import { getHeapStatistics, setFlagsFromString } from 'node:v8';",
    ]);
  });
});

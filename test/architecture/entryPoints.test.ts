import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

describe('the engine', () => {
  it('runs with the settings it was started with: no engine flag is set at run time', () => {
    const setting = sources('src').filter((file) =>
      /setFlagsFromString|from 'node:v8'/.test(readFileSync(file, 'utf8')),
    );
    expect(setting).toEqual([]);
  });
});

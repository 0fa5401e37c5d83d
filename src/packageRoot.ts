import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder of model-gate's own package.json: built-in fixtures (demo config, scenarios,
 * items, catalogue) live under it, whether the code runs from src/ or from the bundle in dist/.
 */
export function packageRoot(): string {
  found ??= findPackageRoot();
  return found;
}

/** Where this module lives does not change while it runs: the walk is done once. */
let found: string | undefined;

function findPackageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (existsSync(manifest)) {
      try {
        const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: unknown };
        if (name === 'model-gate') return dir;
      } catch {
        // Not ours; keep walking up.
      }
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the model-gate package folder');
    dir = parent;
  }
}

/** A built-in scenario name ("demo", "aa") or a path. */
export function scenarioPath(nameOrFile: string): string {
  if (/^[a-z][a-z0-9-]*$/.test(nameOrFile)) {
    return path.join(packageRoot(), 'fixtures', 'simulator', `${nameOrFile}.yml`);
  }
  return path.resolve(nameOrFile);
}

/**
 * The repository an items file belongs to, for what may be run as its code: the nearest folder
 * at or above the items file's folder that holds `.git` (a clone or a worktree); without one,
 * the current folder when the items file is inside it (an unpacked copy run from its root),
 * else the items file's own folder. Paths are real paths, every link resolved, so that a link
 * cannot make a file outside look inside.
 */
import { existsSync, realpathSync } from 'node:fs';
import path from 'node:path';

function real(folder: string): string {
  try {
    return realpathSync(folder);
  } catch {
    return path.resolve(folder);
  }
}

export function repositoryRoot(itemsFolder: string): string {
  const start = real(itemsFolder);
  for (let folder = start; ; ) {
    if (existsSync(path.join(folder, '.git'))) return folder;
    const parent = path.dirname(folder);
    if (parent === folder) break;
    folder = parent;
  }
  const cwd = real(process.cwd());
  return insideFolder(start, cwd) ? cwd : start;
}

/** Whether `file` is `folder` or lies below it (both real, absolute paths). */
export function insideFolder(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

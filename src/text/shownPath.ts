import path from 'node:path';

/**
 * A path as a user would type it in `cwd`: relative when it lies inside that folder, absolute
 * otherwise (a "../../../tmp/…" helps nobody).
 */
export function shownPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

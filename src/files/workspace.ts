/**
 * The working folder — on a runner, the checkout of the pull request — and the rule every file
 * model-gate opens or writes keeps there: a pull request may commit links, and no link inside
 * the working folder may lead a read out of it (src/files/userFile.ts) or a write anywhere
 * (`refuseLinkedFolder`). A path written outside the working folder is the user's explicit
 * choice (an output folder on a larger disk) and is taken as given.
 */
import { lstatSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';

/** The working folder as written and as it really is (it may itself lie behind a link). */
export function workingFolders(): string[] {
  const cwd = process.cwd();
  const real = realPathOrNull(cwd);
  return real === null || real === cwd ? [cwd] : [cwd, real];
}

/** True when `file` is `folder` or lies under it (both absolute). */
export function isInside(file: string, folder: string): boolean {
  const relative = path.relative(folder, file);
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** The real path of `file`, links resolved; null when it (or what it leads to) is missing. */
export function realPathOrNull(file: string): string | null {
  try {
    return realpathSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return null;
    throw error;
  }
}

/**
 * Refuses `dir` when a folder on its way, inside the working folder, is a symbolic link
 * (`model-gate-out → ~/.config` committed in a pull request): model-gate writes nothing through
 * one. Folders not made yet pass; `what` and `hint` say which setting names the folder.
 */
export function refuseLinkedFolder(dir: string, what: string, hint?: string): void {
  const target = path.resolve(dir);
  const root = workingFolders().find((folder) => isInside(target, folder));
  if (root === undefined) return;
  let current = root;
  for (const part of path.relative(root, target).split(path.sep).filter(Boolean)) {
    current = path.join(current, part);
    let link: boolean;
    try {
      link = lstatSync(current).isSymbolicLink();
    } catch {
      return;
    }
    if (link) {
      throw new InputError(
        `${what} ${target}: ${current} is a symbolic link; model-gate writes nothing through a link in the working folder`,
        [
          hint ??
            'a link committed in the repository could send the files anywhere the runner can write: remove the link, or name a folder outside the working folder',
        ],
      );
    }
  }
}

/**
 * Every file a user gives — config, items, persona catalogue, a previous report, the history, a
 * simulator scenario, a sample log — is opened here, one way. On a shared runner a pull request
 * decides what lies in the checkout, links and special files included, so:
 *
 * - a path inside the working folder (the checkout) must lead to a file inside it, or inside
 *   model-gate's own package: a committed link `items.jsonl → /dev/zero`, `→ ~/.ssh/id_rsa`
 *   or a folder link on the way is refused, named by the path the user gave. A path written
 *   outside the working folder is the user's explicit choice and is taken as given;
 * - only a regular file is read: a named pipe (it would block the reader until someone writes
 *   to it), a device (`/dev/zero` never ends), a socket or a folder is refused. The file is
 *   opened without blocking, so a pipe is seen for what it is before anything waits on it;
 * - `readUserFile` counts the bytes as it reads them and stops past the limit, whatever the
 *   file's size says (a file of /proc says 0 and holds more).
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { packageRoot } from '../packageRoot.js';
import { isInside, realPathOrNull, workingFolders } from './workspace.js';

/** An opened regular file: its descriptor (the caller closes it) and its size when opened. */
export interface OpenedUserFile {
  fd: number;
  size: number;
}

/**
 * Opens `file` for reading under the rules above; null when nothing is there. `shownAs` names
 * it in messages (as the user wrote it), `what` says what it is ("persona catalogue").
 */
export function openUserFile(file: string, shownAs: string, what: string): OpenedUserFile | null {
  const resolved = path.resolve(file);
  const real = realPathOrNull(resolved);
  if (real === null) return null;
  refuseLeavingWorkspace(resolved, real, shownAs, what);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const stats = fstatSync(fd);
  if (!stats.isFile()) {
    closeSync(fd);
    throw new InputError(
      `${shownAs}: ${kindOf(stats)}, not a file; a ${what} is read from a file`,
      ['give the path of a regular file (a pipe or a device would be read without end)'],
    );
  }
  return { fd, size: stats.size };
}

/** Refuses `file` unless it can be opened under these rules (a missing file passes: false). */
export function checkUserFile(file: string, shownAs: string, what: string): boolean {
  const opened = openUserFile(file, shownAs, what);
  if (opened === null) return false;
  closeSync(opened.fd);
  return true;
}

/** The limit `readUserFile` keeps, and the refusal it throws past it. */
export interface ReadLimit {
  bytes: number;
  /** The error for a file of `size` bytes (null: more than the limit, found while reading). */
  refuse(size: number | null): InputError;
}

/**
 * The bytes of `file` (null when missing), refused past `limit`: by the size the file reports,
 * before a byte is read, and by the bytes counted while reading.
 */
export function readUserFile(
  file: string,
  shownAs: string,
  what: string,
  limit: ReadLimit,
): Buffer | null {
  const opened = openUserFile(file, shownAs, what);
  if (opened === null) return null;
  try {
    if (opened.size > limit.bytes) throw limit.refuse(opened.size);
    // One byte more than the limit is asked for: reading it says the file is too long.
    const buffer = Buffer.allocUnsafe(
      Math.min(limit.bytes + 1, Math.max(opened.size + 1, 64 * 1024)),
    );
    let filled = 0;
    let target = buffer;
    for (;;) {
      if (filled === target.length) {
        if (filled > limit.bytes) throw limit.refuse(null);
        const larger = Buffer.allocUnsafe(Math.min(limit.bytes + 1, target.length * 2));
        target.copy(larger, 0, 0, filled);
        target = larger;
      }
      const read = readSync(opened.fd, target, filled, target.length - filled, null);
      if (read === 0) break;
      filled += read;
    }
    if (filled > limit.bytes) throw limit.refuse(null);
    return target.subarray(0, filled);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * A path inside the working folder must stay inside it (or inside model-gate's package, whose
 * built-in files an installed copy may reach through a link of the package manager).
 */
function refuseLeavingWorkspace(
  resolved: string,
  real: string,
  shownAs: string,
  what: string,
): void {
  const workspace = workingFolders();
  if (!workspace.some((root) => isInside(resolved, root))) return;
  if ([...workspace, ...ownPackage()].some((root) => isInside(real, root))) return;
  throw new InputError(
    `${shownAs}: a link to ${real}, outside the working folder; model-gate reads a ${what} in the working folder only`,
    [
      'a link committed in the repository must not make the runner read other files: give the path of the file itself',
    ],
  );
}

function ownPackage(): string[] {
  const root = packageRoot();
  const real = realPathOrNull(root);
  return real === null || real === root ? [root] : [root, real];
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a named pipe';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  if (stats.isDirectory()) return 'a folder';
  return 'a special file';
}

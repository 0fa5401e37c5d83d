/**
 * Every file model-gate writes goes through here. On a shared self-hosted runner a pull request
 * controls the workspace: a symbolic link committed at `model-gate-out/summary.md` must not make
 * the runner overwrite the file it points to. So a file is written to a temporary file of its
 * own in the target's folder — created exclusively, never through a link — and renamed into
 * place: a link at the target is replaced by the file, never followed, and a write that fails
 * half-way (a full disk) leaves the previous file whole. A folder on the way that is a link
 * inside the working folder is refused (src/files/workspace.ts): a committed
 * `model-gate-out → elsewhere` writes nothing; a folder outside it is the user's choice.
 *
 * Text is scrubbed of registered secrets on its way out (src/text/secrets.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { scrubSecrets } from '../text/secrets.js';
import { refuseLinkedFolder } from './workspace.js';

// Windows has no O_NOFOLLOW; there O_EXCL alone refuses an existing path.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const CREATE_NEW = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;

/** A file being written beside its target: `commit` puts it in place whole, `abort` drops it. */
export interface AtomicFile {
  /** The file it will become. */
  readonly target: string;
  /** Appends text (scrubbed of secrets) or bytes. */
  write(data: string | Uint8Array): void;
  /** Flushes to disk and renames over the target (a link there is replaced, not followed). */
  commit(): void;
  /** Closes and removes the temporary file; the target is left as it was. */
  abort(): void;
  // Either settles the file once: a second commit or abort does nothing.
}

/** Opens a temporary file in the folder of `target` (created if missing) for an atomic write. */
export function openAtomicFile(target: string): AtomicFile {
  const file = path.resolve(target);
  const dir = path.dirname(file);
  refuseLinkedFolder(dir, `folder of ${path.basename(file)}`);
  mkdirSync(dir, { recursive: true });
  const { fd, temporary } = createTemporary(dir, path.basename(file));
  let open = true;
  let settled = false;
  const close = (): void => {
    if (!open) return;
    open = false;
    closeSync(fd);
  };
  return {
    target: file,
    write(data) {
      if (!open) throw new Error(`${file}: written after it was closed`);
      writeAll(fd, typeof data === 'string' ? Buffer.from(scrubSecrets(data), 'utf8') : data);
    },
    commit() {
      if (settled) return;
      settled = true;
      try {
        fsyncSync(fd);
        close();
        renameSync(temporary, file);
      } catch (error) {
        close();
        removeQuietly(temporary);
        throw error;
      }
    },
    abort() {
      if (settled) return;
      settled = true;
      close();
      removeQuietly(temporary);
    },
  };
}

/** Writes `data` to `target` whole or not at all (see the module comment). */
export function writeFileAtomic(target: string, data: string | Uint8Array): void {
  const file = openAtomicFile(target);
  try {
    file.write(data);
  } catch (error) {
    file.abort();
    throw error;
  }
  file.commit();
}

/**
 * Creates `file` with `data` only if nothing — no file, no link — is there yet. Returns false
 * when something is (a lock held by another run).
 */
export function createExclusive(file: string, data: string): boolean {
  refuseLinkedFolder(path.dirname(path.resolve(file)), `folder of ${path.basename(file)}`);
  let fd: number;
  try {
    fd = openSync(file, CREATE_NEW, 0o666);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeAll(fd, Buffer.from(scrubSecrets(data), 'utf8'));
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Opens `file` for reading and appending (created if missing), refusing a symbolic link there:
 * a file model-gate appends to is always its own. `what` names it in the message.
 */
export function openForAppend(file: string, what: string): number {
  // Without blocking: a named pipe at its place is refused below, not waited on.
  const flags =
    constants.O_RDWR |
    constants.O_APPEND |
    constants.O_CREAT |
    NO_FOLLOW |
    (constants.O_NONBLOCK ?? 0);
  refuseLinkedFolder(path.dirname(path.resolve(file)), `folder of the ${what}`);
  let fd: number;
  try {
    fd = openSync(file, flags, 0o666);
  } catch (error) {
    if (isLinkRefusal(error)) throw linkRefused(file, what);
    throw error;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    throw new InputError(`${what} ${file} is not a regular file (a pipe, a device or a socket)`, [
      'model-gate appends only to a file: remove what is there, or give another path',
    ]);
  }
  return fd;
}

/**
 * The first `limit` bytes of `file` as text, read without following a link at its place; null
 * when it is missing or is a link (a lock file planted as a link to /dev/zero is not read).
 */
export function readHead(file: string, limit: number): string | null {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NO_FOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || isLinkRefusal(error)) return null;
    throw error;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buffer = Buffer.alloc(limit);
    const read = readSync(fd, buffer, 0, limit, 0);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Refuses a symbolic link at `file` (a missing file passes): said before the file is read, so
 * the message names the link rather than what the link leads to.
 */
export function refuseLink(file: string, what: string): void {
  let link = false;
  try {
    link = lstatSync(file).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw linkRefused(file, what);
}

/** O_NOFOLLOW on a link fails with ELOOP (Linux, macOS) or EMLINK (FreeBSD). */
function isLinkRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ELOOP' || code === 'EMLINK';
}

function linkRefused(file: string, what: string): InputError {
  return new InputError(`${what} ${file} is a symbolic link; model-gate does not follow it`, [
    'a link there could make the runner write to any file it can write: remove the link, or give the path of the file itself',
  ]);
}

function createTemporary(dir: string, base: string): { fd: number; temporary: string } {
  // A name nobody can guess; if one is taken anyway (planted), another is drawn.
  for (let attempt = 0; ; attempt++) {
    const temporary = path.join(dir, `.${base}.${process.pid}.${randomBytes(6).toString('hex')}`);
    try {
      return { fd: openSync(temporary, CREATE_NEW, 0o666), temporary };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 8) throw error;
    }
  }
}

function writeAll(fd: number, bytes: Uint8Array): void {
  let written = 0;
  while (written < bytes.length) {
    written += writeSync(fd, bytes, written, bytes.length - written);
  }
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone, or the folder went away: nothing is left to clean.
  }
}

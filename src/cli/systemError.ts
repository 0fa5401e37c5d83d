/**
 * Failures of the machine around model-gate — a path that is a folder, a file where a folder
 * is needed, a port already taken, a full disk — are not bugs to report: they are said in one
 * line that names the path or address, and what to change.
 */
import { ExitCode } from '../errors.js';

interface SystemError extends Error {
  code: string;
  syscall: string;
  path?: string;
  address?: string;
  port?: number;
}

const REASONS: Record<string, string> = {
  EISDIR: 'it is a folder, a file was expected',
  EEXIST: 'a file of that name is in the way of a folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  ENOENT: 'no such file or folder',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOSPC: 'no space left on the device',
  EROFS: 'the file system is read-only',
  EADDRINUSE: 'the port is already in use (choose another one, or 0 for any free port)',
  EADDRNOTAVAIL: 'this machine has no such address',
};

/** Paths the user gave that cannot be used as given: bad input. The rest: the machine. */
const BAD_INPUT = new Set(['EISDIR', 'EEXIST', 'ENOTDIR', 'ENOENT']);

function isSystemError(error: unknown): error is SystemError {
  if (!(error instanceof Error)) return false;
  const fields = error as Partial<SystemError>;
  return typeof fields.code === 'string' && typeof fields.syscall === 'string';
}

/** One line and an exit code for an operating-system error, or null for anything else. */
export function describeSystemError(
  error: unknown,
): { message: string; exitCode: ExitCode } | null {
  if (!isSystemError(error)) return null;
  const where =
    error.path ?? (error.address !== undefined ? `${error.address}:${error.port ?? ''}` : '');
  const reason = REASONS[error.code] ?? error.message;
  return {
    message: `cannot ${error.syscall}${where ? ` ${where}` : ''}: ${reason} (${error.code})`,
    exitCode: BAD_INPUT.has(error.code) ? ExitCode.badInput : ExitCode.infrastructure,
  };
}

/**
 * One run per sample log at a time. A lock file beside the log (`<log>.lock`), created with
 * O_EXCL and holding the owner's process id, is taken before the log is read and removed when
 * the run ends (also on process exit). A lock whose process no longer runs was left by a
 * killed run: it is taken over, and the run says so. A live owner stops the second run before
 * any request (exit 3: nothing is wrong with the input; the log is busy).
 */
import { unlinkSync } from 'node:fs';
import os from 'node:os';
import { InfrastructureError } from '../errors.js';
import { createExclusive, readHead } from '../files/safeWrite.js';

export interface SampleLogLock {
  readonly path: string;
  /** Set when the lock of a run that no longer runs was taken over. */
  readonly warning: string | null;
  release(): void;
}

interface LockOwner {
  pid: number;
  host: string;
}

export function lockPathOf(log: string): string {
  return `${log}.lock`;
}

export function lockSampleLog(log: string): SampleLogLock {
  const file = lockPathOf(log);
  const owner: LockOwner = { pid: process.pid, host: os.hostname() };
  let warning: string | null = null;
  if (!tryCreate(file, owner)) {
    const held = readOwner(file);
    if (held && isRunning(held)) {
      throw new InfrastructureError(
        `${log}: another model-gate run (process ${held.pid}${held.host === owner.host ? '' : ` on ${held.host}`}) is writing this sample log`,
        `wait for it to end, or give this run its own sample log (--log) or output folder; remove ${file} only if no such run exists`,
      );
    }
    // The owner is gone (killed): its lock is stale.
    try {
      unlinkSync(file);
    } catch {
      // Another run took it over at the same moment; tryCreate below tells.
    }
    if (!tryCreate(file, owner)) {
      throw new InfrastructureError(`${log}: another model-gate run took this sample log over`);
    }
    warning = `${log}: took over the lock of process ${held?.pid ?? 'unknown'}, which no longer runs (a run that was killed)`;
  }
  const removeOnExit = (): void => removeIfOurs(file, owner);
  process.once('exit', removeOnExit);
  let held = true;
  return {
    path: file,
    warning,
    release() {
      if (!held) return;
      held = false;
      process.removeListener('exit', removeOnExit);
      removeIfOurs(file, owner);
    },
  };
}

/** Exclusive creation: a lock file, or a link planted at its place, counts as taken. */
function tryCreate(file: string, owner: LockOwner): boolean {
  return createExclusive(file, `${JSON.stringify(owner)}\n`);
}

function readOwner(file: string): LockOwner | null {
  try {
    // A lock is one short line; a link or anything else at its place is no lock of a run.
    const value = JSON.parse(readHead(file, 4096) ?? '') as Partial<LockOwner>;
    if (typeof value.pid === 'number' && typeof value.host === 'string') {
      return { pid: value.pid, host: value.host };
    }
  } catch {
    // Unreadable: a lock cut short by a kill while it was written.
  }
  return null;
}

/** A process on another host cannot be asked: its lock counts as held. */
function isRunning(owner: LockOwner): boolean {
  if (owner.host !== os.hostname()) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function removeIfOurs(file: string, owner: LockOwner): void {
  const held = readOwner(file);
  if (held?.pid !== owner.pid || held.host !== owner.host) return;
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}

/**
 * `model-gate view [dir]`: opens report.html in the desktop's browser, or prints where it is
 * when no browser can be opened (CI, no display). The opener gets the path as one argument of
 * its own, never inside a shell command line, so no file name can become a command.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';

/** The platform's "open this file" program, or null where nobody could see a browser. */
export function openerFor(platform: NodeJS.Platform, env: NodeJS.ProcessEnv): string | null {
  if (env.CI || env.GITHUB_ACTIONS) return null;
  if (platform === 'darwin') return 'open';
  if (platform === 'win32') return 'explorer.exe';
  return env.DISPLAY || env.WAYLAND_DISPLAY ? 'xdg-open' : null;
}

/** report.html of a folder (or the file itself); InputError when there is none. */
export function pageFile(target: string): string {
  const resolved = path.resolve(target);
  const file =
    existsSync(resolved) && statSync(resolved).isDirectory()
      ? path.join(resolved, 'report.html')
      : resolved;
  if (!existsSync(file)) {
    throw new InputError(`${file}: no report.html here`, [
      'model-gate run, model-gate analyze and model-gate demo write one beside report.json; give the folder they wrote (output.dir, --out)',
    ]);
  }
  return file;
}

type Spawn = (command: string, args: readonly string[], options: object) => ChildProcess;

/** Starts the opener, detached; true once it started, false when it could not be started. */
export function openFile(file: string, opener: string, start: Spawn = spawn): Promise<boolean> {
  return new Promise((resolve) => {
    let child: ChildProcess;
    try {
      child = start(opener, [file], {
        detached: true,
        stdio: 'ignore',
        shell: false,
      });
    } catch {
      resolve(false);
      return;
    }
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

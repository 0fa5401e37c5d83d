/**
 * Whether git tracks a file: one committed in the repository — by a pull request, say — rather
 * than written on this machine. A pull request decides what its commits hold, but not what the
 * repository's index says about them: a file it committed is tracked in the checkout, and a file
 * a run wrote there (or a cache restored into it) is not. Asked of the repository that holds the
 * file's folder (a submodule's, when it lies in one).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** True when git tracks `file`; null when git cannot tell (no git, no repository there). */
export function trackedByGit(file: string): boolean | null {
  const resolved = path.resolve(file);
  const result = spawnSync(
    'git',
    [
      // The name is a path, not a pattern; no hook or monitor of the repository runs.
      '--literal-pathspecs',
      '-c',
      'core.fsmonitor=false',
      '-C',
      path.dirname(resolved),
      'ls-files',
      '-z',
      '--',
      path.basename(resolved),
    ],
    {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
      env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' },
    },
  );
  if (result.error || result.status !== 0) return null;
  return result.stdout.length > 0;
}

/** Which workflow run this is, from the variables the runner sets. */

export interface RunLocation {
  serverUrl: string;
  /** "owner/name". */
  repository: string;
  runId: string;
  runAttempt: string;
}

/** Null outside GitHub Actions (a local CLI run). */
export function runLocation(env: NodeJS.ProcessEnv = process.env): RunLocation | null {
  const repository = env.GITHUB_REPOSITORY;
  const runId = env.GITHUB_RUN_ID;
  if (!repository || !runId) return null;
  return {
    serverUrl: (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, ''),
    repository,
    runId,
    runAttempt: env.GITHUB_RUN_ATTEMPT || '1',
  };
}

/** The page of this run, where its artifacts are listed. */
export function runUrl(run: RunLocation): string {
  return `${run.serverUrl}/${run.repository}/actions/runs/${run.runId}`;
}

export function artifactUrl(run: RunLocation, artifactId: number): string {
  return `${runUrl(run)}/artifacts/${artifactId}`;
}

/**
 * The commit a run measured: the pull request's head in a pull_request event (GITHUB_SHA is
 * then a merge commit nobody pushed), GITHUB_SHA otherwise; null outside GitHub Actions.
 */
export function measuredCommit(
  payload: { pull_request?: unknown },
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const pull = payload.pull_request;
  const head =
    typeof pull === 'object' && pull !== null && 'head' in pull
      ? (pull.head as { sha?: unknown } | null)?.sha
      : undefined;
  if (typeof head === 'string' && /^[0-9a-f]{7,64}$/i.test(head)) return head;
  const sha = env.GITHUB_SHA;
  return sha && /^[0-9a-f]{7,64}$/i.test(sha) ? sha : null;
}

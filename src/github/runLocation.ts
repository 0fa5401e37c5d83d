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

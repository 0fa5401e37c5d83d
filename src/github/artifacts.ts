/**
 * The run's artifact: report.json, summary.md, the charts and the sample logs, under a name
 * unique to this run attempt (a re-run must not collide with the first attempt's artifact).
 *
 * Publishing talks to an `ArtifactUploader`. The real one is `@actions/artifact`'s
 * DefaultArtifactClient: `uploadArtifact(name, files, rootDirectory)` zips `files` with paths
 * relative to `rootDirectory` (every file must lie under it, hence `commonDirectory`) and
 * returns `{ id, size }`. It needs ACTIONS_RUNTIME_TOKEN (a JWT naming the run's backend ids)
 * and ACTIONS_RESULTS_URL, which the runner gives to JavaScript actions. Tests run this real
 * client end to end against a fake results service on loopback (Twirp CreateArtifact /
 * FinalizeArtifact and the block-blob upload behind the signed URL) and read the zip back;
 * publishing tests use a fake uploader behind the interface.
 */
import { dirname, resolve, sep } from 'node:path';
import { type RunLocation, artifactUrl } from './runLocation.js';

export interface UploadedArtifact {
  /** Null when the service did not return one (then there is no URL either). */
  id: number | null;
  size: number | null;
}

export interface ArtifactUploader {
  upload(name: string, files: readonly string[], rootDirectory: string): Promise<UploadedArtifact>;
}

/** `@actions/artifact`, loaded when first used: it is large and a CLI run never needs it. */
export class GitHubArtifactUploader implements ArtifactUploader {
  async upload(
    name: string,
    files: readonly string[],
    rootDirectory: string,
  ): Promise<UploadedArtifact> {
    const { DefaultArtifactClient } = await import('@actions/artifact');
    const response = await new DefaultArtifactClient().uploadArtifact(
      name,
      [...files],
      rootDirectory,
    );
    return { id: response.id ?? null, size: response.size ?? null };
  }
}

/** Characters artifact names may not hold (NTFS-safe names). */
const FORBIDDEN = /["':<>|*?\r\n\\/]/g;

/** `<base>-<run id>-<attempt>`, or `<base>` outside GitHub Actions. */
export function artifactName(base: string, run: RunLocation | null): string {
  const clean = base.replace(FORBIDDEN, '-').trim() || 'model-gate';
  return run ? `${clean}-${run.runId}-${run.runAttempt}` : clean;
}

/** The deepest folder that holds every file. */
export function commonDirectory(files: readonly string[]): string {
  const folders = files.map((file) => dirname(resolve(file)).split(sep));
  const first = folders[0];
  if (!first) return resolve('.');
  let depth = first.length;
  for (const parts of folders) {
    let same = 0;
    while (same < Math.min(depth, parts.length) && parts[same] === first[same]) same++;
    depth = same;
  }
  return first.slice(0, depth).join(sep) || sep;
}

export interface ArtifactResult {
  name: string;
  id: number | null;
  /** Link to download the artifact; null without an id or outside GitHub Actions. */
  url: string | null;
}

export async function uploadRunArtifact(
  uploader: ArtifactUploader,
  options: { baseName: string; files: readonly string[]; run: RunLocation | null },
): Promise<ArtifactResult> {
  const name = artifactName(options.baseName, options.run);
  const files = [...new Set(options.files.map((file) => resolve(file)))];
  const uploaded = await uploader.upload(name, files, commonDirectory(files));
  const url = uploaded.id !== null && options.run ? artifactUrl(options.run, uploaded.id) : null;
  return { name, id: uploaded.id, url };
}

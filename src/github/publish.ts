/**
 * Publishes a finished report, in this order: job summary, sticky PR comment, artifact,
 * outputs. Each step fails soft (a warning) so the others still happen; nothing here decides
 * the job's failed state — the caller does that afterwards, from the verdict.
 */
import * as github from '@actions/github';
import { link } from '../render/markdown.js';
import type { MarkdownFor } from '../report/fit.js';
import { renderSummary, whereLine } from '../report/summary.js';
import type { Report } from '../report/types.js';
import { type ArtifactUploader, GitHubArtifactUploader, uploadRunArtifact } from './artifacts.js';
import {
  type CommentResult,
  type CommentTarget,
  type Octokit,
  pullRequestTarget,
  upsertStickyComment,
} from './comment.js';
import { type ActionLog, coreLog } from './log.js';
import { type ActionOutputs, actionOutputs, setActionOutputs } from './outputs.js';
import { measuredCommit, type RunLocation, runLocation, runUrl } from './runLocation.js';
import { type JobSummaryResult, writeJobSummary } from './summary.js';
import { errorMessage } from '../text/format.js';

/** What was written into the output directory (src/report/write.ts) plus the sample logs. */
export interface PublishFiles {
  report: string;
  summary: string;
  /** report.html, when the run wrote one. */
  page?: string;
  charts: readonly string[];
  logs: readonly string[];
  /** gpu.csv, the nightly history: in the artifact beside the report. */
  extra?: readonly string[];
}

export interface PublishOptions {
  /** Write the job summary (on by default). */
  jobSummary?: boolean;
  /** Sticky comment; null or `enabled: false` to skip it. */
  comment: {
    enabled: boolean;
    header: string;
    octokit: Octokit;
    /** The pull request; null when the event has none. */
    target: CommentTarget | null;
  } | null;
  /** Artifact upload; null to skip it. */
  artifact: { baseName: string; uploader: ArtifactUploader } | null;
  /** This workflow run; null outside GitHub Actions. */
  run: RunLocation | null;
  /** The commit measured (named in the summary and the comment); null when unknown. */
  commit?: string | null;
  log?: ActionLog;
  setOutput?: (name: string, value: string) => void;
}

export type StepStatus = 'done' | 'skipped' | 'failed';

export interface PublishResult {
  jobSummary: { status: StepStatus; detail?: JobSummaryResult; reason?: string };
  comment: { status: StepStatus; detail?: CommentResult; reason?: string };
  artifact: { status: StepStatus; name?: string; url: string | null; reason?: string };
  outputs: { status: StepStatus; values?: ActionOutputs; reason?: string };
}

export async function publish(
  report: Report,
  files: PublishFiles,
  options: PublishOptions,
): Promise<PublishResult> {
  const log = options.log ?? coreLog;
  const where = options.run ? runUrl(options.run) : undefined;
  const notice = where
    ? `The report was cut to fit GitHub's size limit. The full summary, report.json and the charts are in the ${link('artifact of this run', where)}.`
    : 'The report was cut to fit GitHub’s size limit. The full summary is in summary.md.';
  // Until the artifact is uploaded, the page is found in the run's list of artifacts. Each
  // place renders it for its own room: the job summary's 1 MiB, a comment's 65,536 characters.
  const summaryFor =
    (pageUrl: string | undefined): MarkdownFor =>
    (limit) =>
      renderSummary(report, {
        ...(where ? { chartsUrl: where, runUrl: where } : {}),
        ...(pageUrl ? { pageUrl } : {}),
        commit: options.commit ?? null,
        limit,
      });
  const markdown = summaryFor(where);

  const result: PublishResult = {
    ...(await summaryAndComment(markdown, notice, options)),
    artifact: { status: 'skipped', url: null },
    outputs: { status: 'skipped' },
  };

  if (options.artifact) {
    result.artifact = await uploadArtifact(options.artifact, files, options.run, log);
    const url = result.artifact.url;
    if (url) await summaryAndComment(summaryFor(url), notice, options, result);
  }

  try {
    const values = actionOutputs(report, files, result.artifact.url);
    setActionOutputs(values, options.setOutput);
    result.outputs = { status: 'done', values };
  } catch (error) {
    log.warning(`model-gate: the outputs could not be set: ${errorMessage(error)}`);
    result.outputs = { status: 'failed', reason: errorMessage(error) };
  }
  return result;
}

async function uploadArtifact(
  artifact: NonNullable<PublishOptions['artifact']>,
  files: PublishFiles,
  run: RunLocation | null,
  log: ActionLog,
): Promise<PublishResult['artifact']> {
  try {
    const uploaded = await uploadRunArtifact(artifact.uploader, {
      baseName: artifact.baseName,
      files: [
        files.report,
        files.summary,
        ...(files.page ? [files.page] : []),
        ...files.charts,
        ...files.logs,
        ...(files.extra ?? []),
      ],
      run,
    });
    log.info(`Uploaded artifact ${uploaded.name}${uploaded.url ? `: ${uploaded.url}` : ''}`);
    return { status: 'done', name: uploaded.name, url: uploaded.url };
  } catch (error) {
    log.warning(`model-gate: the artifact could not be uploaded: ${errorMessage(error)}`);
    return { status: 'failed', url: null, reason: errorMessage(error) };
  }
}

/**
 * The job summary and the sticky comment, each failing soft. `written`: the result of an
 * earlier publication in this step, which this one replaces where it was done (once the
 * upload returned the artifact's own link, the reader finds it there rather than among the
 * run's artifacts); without it, both are published for the first time.
 */
async function summaryAndComment(
  markdown: MarkdownFor,
  notice: string,
  options: PublishOptions,
  written?: Pick<PublishResult, 'jobSummary' | 'comment'>,
): Promise<Pick<PublishResult, 'jobSummary' | 'comment'>> {
  const log = options.log ?? coreLog;
  const result = written ?? { jobSummary: { status: 'skipped' }, comment: { status: 'skipped' } };
  const replacing = written?.jobSummary.status === 'done' ? written.jobSummary.detail : undefined;
  if (written ? replacing : options.jobSummary !== false) {
    try {
      const detail = await writeJobSummary(markdown, {
        fullReportNotice: notice,
        log,
        ...(replacing ? { replacing } : {}),
      });
      result.jobSummary = { status: detail.written ? 'done' : 'skipped', detail };
    } catch (error) {
      log.warning(`model-gate: the job summary could not be written: ${errorMessage(error)}`);
      // A first version that stands is still done.
      if (!written) result.jobSummary = { status: 'failed', reason: errorMessage(error) };
    }
  }
  if (options.comment?.enabled && (!written || written.comment.status === 'done')) {
    // upsertStickyComment never throws: every failure is already a warning.
    const detail = await upsertStickyComment(options.comment.octokit, options.comment.target, {
      header: options.comment.header,
      markdown,
      fullReportNotice: notice,
      log,
    });
    const status =
      detail.status === 'created' || detail.status === 'updated' ? 'done' : detail.status;
    if (!written) result.comment = { status, detail };
  }
  return result;
}

/**
 * A run that ended before it produced a report (server unreachable, model missing, bad input):
 * the job summary and the sticky comment say so, so a previous "pass" in the comment never
 * outlives the run that should have replaced it. Fails soft, like `publish`.
 */
export async function publishFailure(
  title: string,
  message: string,
  options: PublishOptions,
): Promise<Pick<PublishResult, 'jobSummary' | 'comment'>> {
  const where = whereLine({
    commit: options.commit ?? null,
    runUrl: options.run ? runUrl(options.run) : null,
  });
  const markdown = [
    `## ❔ model-gate: ${title}`,
    ...(where ? ['', where] : []),
    '',
    'Nothing was measured by this run: no verdict. An earlier result no longer applies to this commit.',
    '',
    `\`\`\`\n${message.replace(/```/g, "'''")}\n\`\`\``,
    '',
  ].join('\n');
  return summaryAndComment(markdown, '', options);
}

/**
 * Options for a run inside GitHub Actions, from the action's inputs and the event: the
 * comment goes to the event's pull request with `github-token`, the artifact through
 * `@actions/artifact`. Without a token (`github-token: ''`) there is no comment; the rest is
 * published.
 */
export function githubPublishOptions(inputs: {
  token: string;
  comment: boolean;
  commentHeader: string;
  artifactName: string;
  /** "i/n" for a shard run: it comments only under a header of its own. */
  shard?: string | null;
  log?: ActionLog;
}): PublishOptions {
  const { context } = github;
  const target = process.env.GITHUB_REPOSITORY
    ? pullRequestTarget(context.payload, context.repo)
    : null;
  const shardComment = shardMayComment(inputs.shard ?? null, inputs.commentHeader);
  if (inputs.comment && !shardComment) {
    (inputs.log ?? coreLog).notice(
      `model-gate: no PR comment from shard ${inputs.shard}: its slice is not the gate's verdict (give the shard its own comment-header to comment anyway).`,
    );
  }
  return {
    jobSummary: true,
    commit: measuredCommit(context.payload),
    comment:
      inputs.comment && shardComment && inputs.token !== ''
        ? {
            enabled: true,
            header: inputs.commentHeader,
            octokit: github.getOctokit(inputs.token),
            target,
          }
        : null,
    artifact: { baseName: inputs.artifactName, uploader: new GitHubArtifactUploader() },
    run: runLocation(),
  };
}

/** The default header is the gate's own comment: a shard writes it only under another header. */
export const DEFAULT_COMMENT_HEADER = 'default';

export function shardMayComment(shard: string | null, header: string): boolean {
  return shard === null || header !== DEFAULT_COMMENT_HEADER;
}

/**
 * The sticky pull-request comment: one comment per header, found by its hidden marker and
 * its author (another account's comment that quotes the marker is left alone), updated in
 * place or created. A read-only token (pull request from a fork) or a missing pull request
 * never fails the job: a warning or a notice says what happened and the job summary remains.
 */
import type { getOctokit } from '@actions/github';
import { COMMENT_HEADER_EXPECTED, isCommentHeader } from '../config/commentHeader.js';
import { InputError } from '../errors.js';
import { type MarkdownFor, markdownFor } from '../report/fit.js';
import { trimMarkdown, utf8Size } from '../report/trim.js';
import { type ActionLog, coreLog } from './log.js';
import { errorMessage } from '../text/format.js';
import { scrubSecrets } from '../text/secrets.js';

export type Octokit = ReturnType<typeof getOctokit>;

/** GitHub rejects a comment body above 65,536 characters. */
export const COMMENT_LIMIT = 65_536;

/** The account GITHUB_TOKEN writes as; `GET /user` is not open to that token. */
export const ACTIONS_BOT = 'github-actions[bot]';

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export type CommentResult =
  | { status: 'created' | 'updated'; id: number; url: string; trimmed: boolean }
  | { status: 'skipped' | 'failed'; reason: string };

/** The hidden marker of the comment for `header` (the action's `comment-header` input). */
export function commentMarker(header: string): string {
  if (!isCommentHeader(header)) {
    throw new InputError(
      `comment-header ${JSON.stringify(header)} is not usable in a comment marker`,
      [COMMENT_HEADER_EXPECTED],
    );
  }
  return `<!-- model-gate:${header} -->`;
}

interface EventPayload {
  pull_request?: { number?: number } | null;
  issue?: { number?: number; pull_request?: unknown } | null;
}

/** The pull request of the triggering event, or null (push, schedule, a plain issue). */
export function pullRequestTarget(
  payload: EventPayload,
  repo: { owner: string; repo: string },
): CommentTarget | null {
  const number =
    payload.pull_request?.number ??
    (payload.issue?.pull_request ? payload.issue.number : undefined);
  return typeof number === 'number' ? { ...repo, issueNumber: number } : null;
}

function sameAccount(a: string, b: string): boolean {
  const plain = (login: string) => login.toLowerCase().replace(/\[bot\]$/, '');
  return plain(a) === plain(b);
}

/** Who the token writes as: `GET /user` for a personal token, the Actions bot otherwise. */
export async function commentAuthor(octokit: Octokit): Promise<string> {
  try {
    const { data } = await octokit.rest.users.getAuthenticated();
    return data.login;
  } catch {
    return ACTIONS_BOT;
  }
}

/**
 * The marker counts only as the body's first line, where `commentBody` writes it: a marker
 * quoted inside the content (a server version, an item id) never makes a comment ours.
 */
function startsWithMarker(body: string, marker: string): boolean {
  const end = body.indexOf('\n');
  const first = end === -1 ? body : body.slice(0, end);
  return first.replace(/\r$/, '') === marker;
}

/** The first comment, oldest first, that carries the marker and was written by `author`. */
export async function findStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  marker: string,
  author: string,
): Promise<{ id: number; body: string } | null> {
  const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
    owner: target.owner,
    repo: target.repo,
    issue_number: target.issueNumber,
    per_page: 100,
  });
  for await (const page of pages) {
    for (const comment of page.data) {
      const body = comment.body ?? '';
      if (
        startsWithMarker(body, marker) &&
        comment.user &&
        sameAccount(comment.user.login, author)
      ) {
        return { id: comment.id, body };
      }
    }
  }
  return null;
}

/**
 * Marker first, then the markdown (or a rendering of it for the room left), without any
 * registered secret, cut to fit with a notice when it still does not.
 */
export function commentBody(
  marker: string,
  markdown: MarkdownFor,
  fullReportNotice: string,
): string {
  return fittedComment(marker, markdown, fullReportNotice).body;
}

function fittedComment(
  marker: string,
  markdown: MarkdownFor,
  fullReportNotice: string,
): { body: string; trimmed: boolean } {
  const head = `${marker}\n`;
  const room = COMMENT_LIMIT - utf8Size(head);
  const text = scrubSecrets(markdownFor(markdown, room));
  const fitted = trimMarkdown(text, room, fullReportNotice);
  return { body: head + fitted, trimmed: fitted !== text };
}

function httpStatus(error: unknown): number | null {
  if (typeof error === 'object' && error !== null && 'status' in error) {
    const status = (error as { status: unknown }).status;
    return typeof status === 'number' ? status : null;
  }
  return null;
}

export interface StickyCommentOptions {
  header: string;
  /** The text, or a function that renders it for the room a comment leaves. */
  markdown: MarkdownFor;
  /** Appended when the body had to be cut, e.g. a link to the run and its artifact. */
  fullReportNotice: string;
  log?: ActionLog;
}

export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget | null,
  options: StickyCommentOptions,
): Promise<CommentResult> {
  const log = options.log ?? coreLog;
  if (!target) {
    const reason = 'no pull request in this event: the report is in the job summary only';
    log.notice(`model-gate: ${reason}.`);
    return { status: 'skipped', reason };
  }
  let marker: string;
  try {
    marker = commentMarker(options.header);
  } catch (error) {
    log.warning(`model-gate: no PR comment: ${errorMessage(error)}.`);
    return { status: 'failed', reason: errorMessage(error) };
  }
  const { body, trimmed } = fittedComment(marker, options.markdown, options.fullReportNotice);
  try {
    const author = await commentAuthor(octokit);
    const existing = await findStickyComment(octokit, target, marker, author);
    const { data } = existing
      ? await octokit.rest.issues.updateComment({
          owner: target.owner,
          repo: target.repo,
          comment_id: existing.id,
          body,
        })
      : await octokit.rest.issues.createComment({
          owner: target.owner,
          repo: target.repo,
          issue_number: target.issueNumber,
          body,
        });
    log.info(`${existing ? 'Updated' : 'Created'} the model-gate comment ${data.html_url}`);
    return { status: existing ? 'updated' : 'created', id: data.id, url: data.html_url, trimmed };
  } catch (error) {
    const status = httpStatus(error);
    if (status === 403 || status === 404) {
      const reason =
        'the token cannot write to this pull request (a pull request from a fork gets a read-only token); the report is in the job summary';
      log.warning(`model-gate: no PR comment: ${reason} (HTTP ${status}).`);
      return { status: 'skipped', reason };
    }
    const reason = `commenting failed${status ? ` (HTTP ${status})` : ''}: ${errorMessage(error)}`;
    log.warning(`model-gate: ${reason}`);
    return { status: 'failed', reason };
  }
}

import { getOctokit } from '@actions/github';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  COMMENT_LIMIT,
  commentBody,
  commentMarker,
  pullRequestTarget,
  upsertStickyComment,
} from '../../src/github/comment.js';
import type { ActionLog } from '../../src/github/log.js';
import { type FakeGitHub, startFakeGitHub } from './fakeGitHub.js';

const TARGET = { owner: 'acme', repo: 'models', issueNumber: 7 };
const NOTICE = 'Cut. Full report: [run](https://github.test/acme/models/actions/runs/1)';

function recordingLog(): ActionLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info: ${m}`),
    notice: (m) => lines.push(`notice: ${m}`),
    warning: (m) => lines.push(`warning: ${m}`),
  };
}

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub(TARGET.owner, TARGET.repo, TARGET.issueNumber);
});
afterEach(async () => {
  await github.close();
});

const octokit = (token: string) => getOctokit(token, { baseUrl: github.url });
const post = (token: string, markdown: string, header = 'default', log = recordingLog()) =>
  upsertStickyComment(octokit(token), TARGET, { header, markdown, fullReportNotice: NOTICE, log });

describe('sticky PR comment against a fake GitHub API', () => {
  it('creates the comment with its marker, then updates that same comment', async () => {
    const first = await post('app', 'verdict: fail');
    expect(first).toMatchObject({ status: 'created', trimmed: false });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]).toMatchObject({
      body: '<!-- model-gate:default -->\nverdict: fail',
      user: { login: 'github-actions[bot]' },
    });

    const second = await post('app', 'verdict: pass');
    expect(second).toMatchObject({ status: 'updated', id: github.comments[0]?.id });
    expect(github.comments).toHaveLength(1);
    expect(github.comments[0]?.body).toBe('<!-- model-gate:default -->\nverdict: pass');
    expect(github.requests.filter((r) => r.startsWith('PATCH'))).toHaveLength(1);
  });

  it('keeps one comment per header', async () => {
    await post('app', 'churn', 'churn');
    await post('app', 'dragon', 'dragon');
    await post('app', 'churn again', 'churn');
    expect(github.comments.map((c) => c.body)).toEqual([
      '<!-- model-gate:churn -->\nchurn again',
      '<!-- model-gate:dragon -->\ndragon',
    ]);
  });

  it("ignores another account's comment that carries the marker", async () => {
    const quoted = github.addComment('mallory', '<!-- model-gate:default -->\nlook, a marker');
    const result = await post('app', 'verdict: pass');
    expect(result.status).toBe('created');
    expect(github.comments).toHaveLength(2);
    expect(github.comments[0]).toEqual(quoted);
  });

  it('recognises its own comments when the token is a personal one (GET /user)', async () => {
    github.addComment('github-actions[bot]', '<!-- model-gate:default -->\nbot comment');
    const result = await post('pat-alice', 'verdict: warn');
    expect(result.status).toBe('created');
    const again = await post('pat-alice', 'verdict: pass');
    expect(again.status).toBe('updated');
    expect(github.comments.map((c) => c.user.login)).toEqual(['github-actions[bot]', 'alice']);
    expect(github.comments[1]?.body).toContain('verdict: pass');
  });

  it('finds its comment beyond the first page of 100', async () => {
    for (let i = 0; i < 230; i++)
      github.addComment(i % 2 ? 'bob' : 'github-actions[bot]', `chatter ${i}`);
    const mine = github.addComment('github-actions[bot]', '<!-- model-gate:default -->\nold');
    const result = await post('app', 'new');
    expect(result).toMatchObject({ status: 'updated', id: mine.id });
    const listed = github.requests.filter((r) => r.startsWith('GET /repos'));
    expect(listed).toEqual([
      'GET /repos/acme/models/issues/7/comments?per_page=100',
      'GET /repos/acme/models/issues/7/comments?per_page=100&page=2',
      'GET /repos/acme/models/issues/7/comments?per_page=100&page=3',
    ]);
  });

  it('stops listing once the comment is found', async () => {
    github.addComment('github-actions[bot]', '<!-- model-gate:default -->\nold');
    for (let i = 0; i < 150; i++) github.addComment('bob', `chatter ${i}`);
    await post('app', 'new');
    expect(github.requests.filter((r) => r.startsWith('GET /repos'))).toHaveLength(1);
  });

  it('on a fork (read-only token, 403) warns and carries on', async () => {
    const log = recordingLog();
    const result = await post('readonly', 'verdict: fail', 'default', log);
    expect(result.status).toBe('skipped');
    expect(github.comments).toHaveLength(0);
    expect(log.lines.filter((l) => l.startsWith('warning:'))).toEqual([
      expect.stringMatching(/read-only token.*job summary \(HTTP 403\)/),
    ]);
  });

  it('skips with a notice when the event has no pull request', async () => {
    const log = recordingLog();
    const result = await upsertStickyComment(octokit('app'), null, {
      header: 'default',
      markdown: 'x',
      fullReportNotice: NOTICE,
      log,
    });
    expect(result.status).toBe('skipped');
    expect(log.lines).toEqual([expect.stringMatching(/^notice: .*no pull request/)]);
    expect(github.requests).toEqual([]);
  });

  it('trims a body over 65,536 characters at a section with a link, and GitHub accepts it', async () => {
    const section = (i: number) => `### section ${i}\n\n${'x'.repeat(9_000)}\n`;
    const markdown = Array.from({ length: 10 }, (_, i) => section(i)).join('\n');
    expect(markdown.length).toBeGreaterThan(COMMENT_LIMIT);
    const result = await post('app', markdown);
    expect(result).toMatchObject({ status: 'created', trimmed: true });
    const body = github.comments[0]?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(COMMENT_LIMIT);
    expect(body.startsWith('<!-- model-gate:default -->\n### section 0')).toBe(true);
    expect(body).toContain('### section 6');
    expect(body).not.toContain('### section 7');
    expect(body.endsWith(`${NOTICE}\n`)).toBe(true);
  });

  it('never throws when the API fails: a warning with the status', async () => {
    const log = recordingLog();
    const broken = getOctokit('app', { baseUrl: `${github.url}/nowhere` });
    const result = await upsertStickyComment(broken, TARGET, {
      header: 'default',
      markdown: 'x',
      fullReportNotice: NOTICE,
      log,
    });
    // The fake answers 404 for unknown paths: treated like a token that cannot see the PR.
    expect(result.status).toBe('skipped');
    const closed = getOctokit('app', { baseUrl: 'http://127.0.0.1:9' });
    const offline = await upsertStickyComment(closed, TARGET, {
      header: 'default',
      markdown: 'x',
      fullReportNotice: NOTICE,
      log,
    });
    expect(offline.status).toBe('failed');
    expect(log.lines.at(-1)).toMatch(/^warning: model-gate: commenting failed/);
  });
});

describe('markers and targets', () => {
  it('accepts plain headers and refuses ones that could close the HTML comment', () => {
    expect(commentMarker('nightly-dragon')).toBe('<!-- model-gate:nightly-dragon -->');
    for (const bad of ['', 'a -->', 'a b', '-x', 'x'.repeat(65)]) {
      expect(() => commentMarker(bad)).toThrow(/comment-header/);
    }
  });

  it('reads the pull request from pull_request and issue_comment events only', () => {
    const repo = { owner: 'o', repo: 'r' };
    expect(pullRequestTarget({ pull_request: { number: 3 } }, repo)).toEqual({
      ...repo,
      issueNumber: 3,
    });
    expect(pullRequestTarget({ issue: { number: 4, pull_request: {} } }, repo)).toEqual({
      ...repo,
      issueNumber: 4,
    });
    expect(pullRequestTarget({ issue: { number: 5 } }, repo)).toBeNull();
    expect(pullRequestTarget({}, repo)).toBeNull();
  });

  it('puts the marker first and keeps the whole body within the limit', () => {
    const body = commentBody('<!-- model-gate:x -->', 'é'.repeat(70_000), NOTICE);
    expect(body.startsWith('<!-- model-gate:x -->\n')).toBe(true);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(COMMENT_LIMIT);
  });
});

/**
 * The sticky comment's marker is its first line, never something the content quotes, and
 * `comment-header` has one rule, checked with the other inputs before anything runs.
 */
import { CHECKS } from '../../src/checks/builtIn.js';
import { getOctokit } from '@actions/github';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getInputs } from '../../src/config/actionInputs.js';
// The checks hand their settings blocks to the config when the registry loads.
import '../../src/checks/builtIn.js';
import { InputError } from '../../src/errors.js';
import { commentMarker, upsertStickyComment } from '../../src/github/comment.js';
import type { ActionLog } from '../../src/github/log.js';
import { type FakeGitHub, startFakeGitHub } from '../github/fakeGitHub.js';

const TARGET = { owner: 'acme', repo: 'models', issueNumber: 7 };
const log: ActionLog = { info() {}, notice() {}, warning() {} };

let github: FakeGitHub;
beforeEach(async () => {
  github = await startFakeGitHub(TARGET.owner, TARGET.repo, TARGET.issueNumber);
});
afterEach(async () => {
  await github.close();
});

const post = (markdown: string, header: string) =>
  upsertStickyComment(getOctokit('app', { baseUrl: github.url }), TARGET, {
    header,
    markdown,
    fullReportNotice: '',
    log,
  });

describe('comment marker', () => {
  it('is not captured by a marker quoted in the content (a hostile server version)', async () => {
    const planted = 'Server: ollama, version `<!-- model-gate:nightly -->`';
    expect((await post(planted, 'default')).status).toBe('created');
    const nightly = await post('nightly calibration', 'nightly');
    expect(nightly.status).toBe('created');
    expect(github.comments.map((c) => c.body)).toEqual([
      `<!-- model-gate:default -->\n${planted}`,
      '<!-- model-gate:nightly -->\nnightly calibration',
    ]);
    // Its own comment is still found and updated.
    expect((await post('second night', 'nightly')).status).toBe('updated');
    expect(github.comments).toHaveLength(2);
  });

  it('is recognised with CRLF line ends as GitHub may return them', async () => {
    github.addComment('github-actions[bot]', '<!-- model-gate:default -->\r\nold');
    expect((await post('new', 'default')).status).toBe('updated');
    expect(github.comments).toHaveLength(1);
  });
});

describe('comment-header rule', () => {
  const reader = (inputs: Record<string, string>) => ({
    getInput: (name: string) => inputs[name] ?? '',
    getBooleanInput: (name: string) => inputs[name] === 'true',
    setSecret: () => {},
  });

  it.each(['.nightly', '-x', 'a b', 'x'.repeat(65), 'a<b'])(
    'refuses %j with the inputs, by the rule the marker uses',
    (header) => {
      expect(() => commentMarker(header)).toThrow(InputError);
      let caught: unknown;
      try {
        getInputs(reader({ 'comment-header': header, baseline: 'a:1b', config: '' }), {
          checks: CHECKS,
        });
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InputError);
      expect((caught as InputError).details.join('\n')).toContain("input 'comment-header'");
    },
  );

  it('accepts what the marker accepts', () => {
    expect(commentMarker('nightly.v2_a-b')).toBe('<!-- model-gate:nightly.v2_a-b -->');
    const inputs = getInputs(reader({ 'comment-header': 'nightly.v2_a-b', baseline: 'a:1b' }), {
      checks: CHECKS,
    });
    expect(inputs.commentHeader).toBe('nightly.v2_a-b');
  });
});

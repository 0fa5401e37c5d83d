/**
 * A pull request that breaks model-gate.yml must not keep an earlier "✅ pass" in its sticky
 * comment: the publishing inputs are read before the config, so any failure after them — a
 * config that is not valid YAML, an unknown or reserved key, an alias bomb — replaces the
 * comment with what happened. Before, a bad config made no GitHub request at all.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeGitHub, startFakeGitHub } from '../github/fakeGitHub.js';
import { runActionInProcess } from '../support/actionInProcess.js';

const MARKER = '<!-- model-gate:default -->';
let github: FakeGitHub;

beforeAll(async () => {
  github = await startFakeGitHub('octo', 'models', 7);
});
afterAll(async () => {
  await github.close();
});
beforeEach(() => {
  github.comments.length = 0;
  github.addComment(
    'github-actions[bot]',
    `${MARKER}\n## ✅ model-gate verdict: pass\n\nevery gate rule passed`,
  );
});

function configFile(text: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'model-gate-stale-'));
  const file = path.join(dir, 'model-gate.yml');
  writeFileSync(file, text);
  return file;
}

async function runWith(config: string) {
  return runActionInProcess(
    { config, 'github-token': 'app', 'ollama-host': 'http://127.0.0.1:9' },
    { GITHUB_API_URL: github.url },
  );
}

function sticky(): string {
  const mine = github.comments.filter((c) => c.body.startsWith(MARKER));
  expect(mine).toHaveLength(1);
  return mine[0]?.body ?? '';
}

const BAD_CONFIGS: [string, string, string][] = [
  ['not valid YAML', 'models:\n  baseline: a:1b\n  candidate: [\n', 'not valid YAML'],
  [
    'an unknown key',
    'models:\n  baseline: a:1b\nfail-onn: never\n',
    'line 3: unknown setting fail-onn; did you mean fail-on?',
  ],
  [
    'a __proto__ block',
    'models:\n  baseline: a:1b\n__proto__:\n  fail-on: never\n',
    'line 3, column 1: key "__proto__" is not accepted',
  ],
  [
    'an alias bomb',
    `a: &a [x, x, x, x, x, x, x, x, x, x]\n${Array.from(
      { length: 8 },
      (_, i) =>
        `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10)
          .fill(`*${String.fromCharCode(97 + i)}`)
          .join(', ')}]`,
    ).join('\n')}\nmodels:\n  baseline: a:1b\n`,
    'aliases expand too far',
  ],
];

describe('a bad model-gate.yml in a pull request with an earlier pass comment', () => {
  for (const [what, text, said] of BAD_CONFIGS) {
    it(`${what}: the comment says bad input and why, the step fails`, async () => {
      const run = await runWith(configFile(text));
      expect(run.exitCode).toBe(1);
      expect(run.outputs.verdict).toBe('inconclusive');
      const comment = sticky();
      expect(comment).not.toContain('verdict: pass');
      expect(comment).toContain('model-gate: bad input');
      expect(comment).toContain('An earlier result no longer applies to this commit');
      expect(comment, comment).toContain(said);
      expect(run.summary).toContain('model-gate: bad input');
    });
  }

  it('an unusable comment-header: no comment can be found, so it is left, and the summary says why', async () => {
    const run = await runActionInProcess(
      {
        config: configFile('models:\n  baseline: a:1b\n'),
        'comment-header': 'a b',
        'github-token': 'app',
      },
      { GITHUB_API_URL: github.url },
    );
    expect(run.exitCode).toBe(1);
    expect(run.summary).toContain("input 'comment-header'");
    expect(sticky()).toContain('verdict: pass');
  });
});

/**
 * Graders against a hostile items file or a hostile answer: a `module` grader is the only code
 * an items file can bring, and only the repository's own file may be it (no `../`, no absolute
 * path elsewhere, no link pointing out, refused before anything is imported, `validate`
 * included); no pattern of an items file backtracks on an answer (a regex grader, a JSON
 * Schema's `pattern`); the label grader's work grows linearly with the answer.
 */
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors.js';
import { graders } from '../../src/graders/index.js';
import type { Grader } from '../../src/graders/types.js';
import { sourceCli } from '../support/bundled.js';

const item = { id: 'q', domain: 'd', prompt: 'p', system: null, expected: null };

function build(raw: unknown, expected: unknown, baseDir = '.'): Grader | string[] {
  const problems: string[] = [];
  const grader = graders.build(raw, expected, { baseDir, where: 'items.yml:1', item }, problems);
  return grader ?? problems;
}

/** Runs the CLI; SIGTERM after `termAfterMs`; resolves with the exit code, output and time. */
function runCli(
  args: readonly string[],
  cwd: string,
  termAfterMs = 2_000,
): Promise<{ code: number | null; stderr: string; ms: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [sourceCli(), ...args], {
      cwd,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const term = setTimeout(() => child.kill('SIGTERM'), termAfterMs);
    // Past 5 s after the SIGTERM the command has failed the rule: end it, and report null.
    const kill = setTimeout(() => child.kill('SIGKILL'), termAfterMs + 5_000);
    child.on('exit', (code) => {
      clearTimeout(term);
      clearTimeout(kill);
      resolve({ code, stderr, ms: Date.now() - started });
    });
  });
}

/** A repository (a folder with .git) with an items folder, and a module outside it. */
function repositoryWithOutsideModule(): {
  root: string;
  repo: string;
  items: string;
  marker: string;
} {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-module-')));
  const repo = path.join(root, 'repo');
  const items = path.join(repo, 'items');
  mkdirSync(path.join(repo, '.git'), { recursive: true });
  mkdirSync(items);
  mkdirSync(path.join(repo, 'graders'));
  const marker = path.join(root, 'imported.txt');
  // Importing it leaves a trace: the test proves it was never imported.
  writeFileSync(
    path.join(root, 'outside.mjs'),
    `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, String(Object.keys(process.env).length));\nexport function grade() { return true; }\n`,
  );
  writeFileSync(
    path.join(repo, 'graders', 'inside.mjs'),
    'export function grade(answer) { return answer === "yes"; }\n',
  );
  symlinkSync(path.join(root, 'outside.mjs'), path.join(items, 'link.mjs'));
  return { root, repo, items, marker };
}

describe('a module grader outside the repository', () => {
  it('is refused when the items are read, for ../, an absolute path and a link pointing out', () => {
    const { root, items, marker } = repositoryWithOutsideModule();
    const outside = path.join(root, 'outside.mjs');
    for (const module of ['../../outside.mjs', outside, 'link.mjs']) {
      const found = build({ type: 'module', module }, undefined, items);
      expect(Array.isArray(found), module).toBe(true);
      expect((found as string[])[0]).toContain(
        `grader module: module ${JSON.stringify(module)} is outside the repository`,
      );
    }
    expect(
      (build({ type: 'module', module: 'link.mjs' }, undefined, items) as string[])[0],
    ).toContain(`through a link, to ${JSON.stringify(outside)}`);
    // A module of the repository, even in another folder than the items, is taken.
    const inside = build({ type: 'module', module: '../graders/inside.mjs' }, undefined, items);
    expect(Array.isArray(inside)).toBe(false);
    expect(existsSync(marker)).toBe(false);
  });

  it('validate exits 2 naming the file, and the module is never imported', async () => {
    const { repo, items, marker } = repositoryWithOutsideModule();
    writeFileSync(
      path.join(items, 'items.yml'),
      '- id: q1\n  domain: d\n  prompt: "Yes?"\n  grader: {type: module, module: ../../outside.mjs}\n',
    );
    writeFileSync(
      path.join(repo, 'model-gate.yml'),
      'models:\n  baseline: base:1b\nchecks: [churn]\nchurn:\n  items: items/items.yml\n',
    );
    const result = await runCli(['validate', '--config', 'model-gate.yml'], repo, 20_000);
    expect(result.code).toBe(ExitCode.badInput);
    expect(result.stderr).toContain('items.yml:4 (item "q1")');
    expect(result.stderr).toContain('module "../../outside.mjs" is outside the repository');
    expect(existsSync(marker)).toBe(false);
  }, 30_000);
});

/** The pattern of the report: catastrophic backtracking on a 105-byte answer in JavaScript. */
const NESTED = '^(\\w+\\s?)+$';
const HOSTILE = `${'a'.repeat(104)}!`;

describe('regular expressions of an items file on a hostile answer', () => {
  it('a regex grader decides a 105-byte answer (and a 64 kB one) at once', () => {
    const grader = build({ type: 'regex', pattern: NESTED }, undefined) as Grader;
    expect(grader.grade(HOSTILE).correct).toBe(false);
    expect(grader.grade(`${'ab '.repeat(21_000)}!`).correct).toBe(false);
    expect(grader.grade('two words').correct).toBe(true);
  }, 5_000);

  it('a JSON Schema pattern (and patternProperties) decides a hostile answer at once', () => {
    const keys = '^(x+x+)+y$';
    const schema = {
      type: 'object',
      properties: { name: { type: 'string', pattern: NESTED } },
      patternProperties: { [keys]: { type: 'number' } },
    };
    const grader = build({ type: 'json', schema }, undefined) as Grader;
    expect(grader.grade(JSON.stringify({ name: HOSTILE })).correct).toBe(false);
    expect(grader.grade(JSON.stringify({ [`${'x'.repeat(100)}!`]: 'x' })).correct).toBe(true);
    expect(grader.grade(JSON.stringify({ xxy: 'x' })).correct).toBe(false);
    expect(grader.grade(JSON.stringify({ name: 'two words' })).correct).toBe(true);
  }, 5_000);

  it('a pattern that cannot run in linear time is refused with the reason', () => {
    expect(build({ type: 'regex', pattern: '(a)\\1' }, undefined)).toEqual([
      expect.stringContaining('backreferences (\\1, \\k<name>) are not supported'),
    ]);
    expect(build({ type: 'regex', pattern: 'a(?=b)' }, undefined)).toEqual([
      expect.stringContaining('lookahead ((?= or (?!) is not supported'),
    ]);
    const schema = { type: 'string', pattern: 'x(?!y)' };
    expect(build({ type: 'json', schema }, undefined)).toEqual([
      expect.stringContaining('grader json: schema is not a usable JSON Schema: lookahead'),
    ]);
  });

  it('validate with a hostile example answer ends in time, exit 2, the example named', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-redos-')));
    writeFileSync(
      path.join(dir, 'items.yml'),
      `- id: q1\n  domain: d\n  prompt: "Words?"\n  expected: "${HOSTILE}"\n  grader: {type: regex, pattern: '${NESTED}'}\n`,
    );
    writeFileSync(
      path.join(dir, 'model-gate.yml'),
      'models:\n  baseline: base:1b\nchecks: [churn]\nchurn:\n  items: items.yml\n',
    );
    // SIGTERM after 4 s (a start on a busy runner takes 2): over within 5 s of it in any case.
    const result = await runCli(['validate', '--config', 'model-gate.yml'], dir, 4_000);
    expect(result.ms).toBeLessThan(9_000);
    expect(result.code).toBe(ExitCode.badInput);
    expect(result.stderr).toContain(
      `does not match the pattern "${NESTED.replaceAll('\\', '\\\\')}"`,
    );
  }, 30_000);
});

describe('the label grader on a long answer', () => {
  /** Closers (`*`) between two letters: the shape that made the label grader quadratic. */
  const answer = (bytes: number) => `a${'*'.repeat(bytes - 2)}a`;
  const grader = build({ type: 'label', labels: ['billing', 'shipping'] }, 'billing') as Grader;

  /** The fastest of 3 runs of `fn`, in ms. */
  function fastest(fn: () => void): number {
    let best = Number.POSITIVE_INFINITY;
    for (let i = 0; i < 3; i++) {
      const start = performance.now();
      fn();
      best = Math.min(best, performance.now() - start);
    }
    return best;
  }

  it('grades 256 kB in about the time of 16 answers of 16 kB (linear, not quadratic)', () => {
    const long = answer(256 * 1024);
    const short = answer(16 * 1024);
    expect(grader.grade(long)).toMatchObject({ correct: false, offLabel: true });
    const once = fastest(() => grader.grade(long));
    const sixteen = fastest(() => {
      for (let i = 0; i < 16; i++) grader.grade(short);
    });
    // Quadratic work would make the long answer 16 times the short ones; linear about 1.
    expect(once).toBeLessThan(4 * sixteen + 5);
  });
});

/**
 * The `module` grader read its file with readFileSync of its own, beside the repository's one
 * reader of user files (src/files/userFile.ts): no size limit (a 3 GB module of the repository
 * was read whole to be hashed, and failed as an internal error), no refusal of a pipe or a
 * device. It now reads through that reader, with the limit of a grader module, and keeps its
 * own rule: only a file of the repository.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_MODULE_BYTES } from '../../src/config/limits.js';
import { graders } from '../../src/graders/index.js';
import type { ModuleSpec } from '../../src/graders/module.js';
import type { Grader } from '../../src/graders/types.js';

const item = { id: 'q', domain: 'd', prompt: 'p', system: null, expected: null };

function build(raw: unknown, baseDir: string): Grader | string[] {
  const problems: string[] = [];
  const grader = graders.build(raw, undefined, { baseDir, where: 'items.yml:1', item }, problems);
  return grader ?? problems;
}

function repository(): string {
  const repo = realpathSync(mkdtempSync(path.join(tmpdir(), 'model-gate-module-file-')));
  mkdirSync(path.join(repo, '.git'));
  return repo;
}

describe('the file of a module grader', () => {
  it('is 8 MiB at most', () => {
    expect(MAX_MODULE_BYTES).toBe(8 * 1024 * 1024);
  });

  it('a 3 GB module of the repository is refused by its size, not read', () => {
    const repo = repository();
    const file = path.join(repo, 'big.mjs');
    writeFileSync(file, 'export function grade() { return true; }\n');
    truncateSync(file, 3 * 1024 * 1024 * 1024);
    expect(build({ type: 'module', module: 'big.mjs' }, repo)).toEqual([
      'grader module: module "big.mjs": 3072 MiB is more than a grader module may hold (8 MiB)',
    ]);
  });

  it('a module within the limit is fingerprinted by its bytes, as before', () => {
    const repo = repository();
    const text = 'export function grade(answer) { return answer === "yes"; }\n';
    writeFileSync(path.join(repo, 'ok.mjs'), text);
    const grader = build({ type: 'module', module: 'ok.mjs' }, repo) as Grader;
    expect((grader.spec as ModuleSpec).sha256).toBe(
      createHash('sha256').update(text).digest('hex'),
    );
  });
});

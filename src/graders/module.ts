/**
 * `module`: a JavaScript file of the repository exporting `grade(answer, item)`, which returns
 * true or false, for what the other graders cannot express. It is the repository's own code,
 * run in model-gate's process whenever answers are graded (at run time and by every analysis,
 * `model-gate analyze` included). Its fingerprint covers the file's bytes, not the files it
 * imports.
 *
 * Only a file inside the repository is taken: its real path (every link resolved) must lie in
 * the repository's folder (repositoryRoot.ts). `../x.mjs` leaving it, an absolute path
 * elsewhere, or a link inside it that points out is refused when the items file is read
 * (`validate` included), before anything is imported. Its bytes (hashed for the fingerprint)
 * are read like every user file, limited to MAX_MODULE_BYTES.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { z } from 'zod';
import { MAX_MODULE_BYTES, readLimitedFile } from '../config/limits.js';
import { InputError } from '../errors.js';
import { insideFolder, repositoryRoot } from './repositoryRoot.js';
import { quoted } from './text.js';
import type { GradedItem, GraderKind, GraderSite, GraderSpec } from './types.js';

export interface ModuleSpec extends GraderSpec {
  type: 'module';
  /** The path as written, relative to the items file. */
  module: string;
  /** SHA-256 of the module file: a changed grader is a changed fingerprint. */
  sha256: string;
  expected: unknown;
}

const OPTIONS = { module: z.string().nullish() };

const EXTENSIONS = ['.js', '.mjs', '.cjs'];

type GradeFunction = (answer: string, item: Readonly<GradedItem>) => unknown;

/** The module's `grade`, loaded once per file. */
const loaded = new Map<string, Promise<GradeFunction>>();
/** The function of each spec once prepared. */
const prepared = new WeakMap<ModuleSpec, GradeFunction>();

/** The module's real path inside the repository, or why it cannot be taken. */
function locate(module: string, baseDir: string): { file: string } | { problem: string } {
  const written = path.resolve(baseDir, module);
  let real: string;
  try {
    real = realpathSync(written);
    if (!statSync(real).isFile()) throw new Error('not a file');
  } catch {
    return { problem: `module ${quoted(module)} not found (paths are relative to the items file)` };
  }
  const root = repositoryRoot(baseDir);
  if (!insideFolder(real, root)) {
    const via = real === written ? '' : ` (through a link, to ${quoted(real)})`;
    return {
      problem: `module ${quoted(module)} is outside the repository${via}: a grader module must be a file of the repository (${quoted(root)}), the only code model-gate runs`,
    };
  }
  return { file: real };
}

/**
 * The bytes of the module, found inside the repository, read by the one reader of user files
 * (src/files/userFile.ts): a regular file only, its size limited and counted while read.
 */
function readModule(file: string, module: string): { read: Buffer } | { problem: string } {
  try {
    const read = readLimitedFile(
      file,
      `module ${quoted(module)}`,
      MAX_MODULE_BYTES,
      'grader module',
    );
    return read === null
      ? { problem: `module ${quoted(module)} not found (paths are relative to the items file)` }
      : { read };
  } catch (error) {
    if (error instanceof InputError) return { problem: error.message };
    throw error;
  }
}

async function importGrade(file: string, module: string, where: string): Promise<GradeFunction> {
  let exported: Record<string, unknown>;
  try {
    exported = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError(`${where}: grader module ${quoted(module)} could not be loaded`, [
      reason ?? 'unknown error',
    ]);
  }
  const fallback = exported['default'] as Record<string, unknown> | undefined;
  const grade = exported['grade'] ?? fallback?.['grade'];
  if (typeof grade !== 'function') {
    throw new InputError(
      `${where}: grader module ${quoted(module)} does not export a function grade(answer, item)`,
      ['export function grade(answer, item) { return true or false }'],
    );
  }
  return grade as GradeFunction;
}

export const module: GraderKind<ModuleSpec, typeof OPTIONS> = {
  type: 'module',
  options: OPTIONS,
  runsCode: true,
  build(options, expected, context) {
    const written = options.value('module');
    if (!options.ok) return null;
    if (typeof written !== 'string' || written.trim() === '') {
      options.problem(
        'needs `module`, the path of a JavaScript file exporting grade(answer, item)',
      );
      return null;
    }
    if (!EXTENSIONS.includes(path.extname(written).toLowerCase())) {
      options.problem(`module ${quoted(written)}: expected a .js, .mjs or .cjs file`);
      return null;
    }
    const found = locate(written, context.site.baseDir);
    if ('problem' in found) {
      options.problem(found.problem);
      return null;
    }
    const bytes = readModule(found.file, written);
    if ('problem' in bytes) {
      options.problem(bytes.problem);
      return null;
    }
    const sha256 = createHash('sha256').update(bytes.read).digest('hex');
    return options.ok
      ? { type: 'module', module: written, sha256, expected: expected ?? null }
      : null;
  },
  async prepare(spec, site: GraderSite) {
    // Located again: the file may have been replaced by a link since the items were read.
    const found = locate(spec.module, site.baseDir);
    if ('problem' in found) throw new InputError(`${site.where}: grader ${found.problem}`);
    let pending = loaded.get(found.file);
    if (!pending) {
      pending = importGrade(found.file, spec.module, site.where);
      loaded.set(found.file, pending);
      pending.catch(() => loaded.delete(found.file));
    }
    prepared.set(spec, await pending);
  },
  grade(spec, answer, { site }) {
    const fn = prepared.get(spec);
    if (!fn) throw new Error(`grader module ${spec.module} used before it was loaded`);
    let result: unknown;
    try {
      result = fn(answer, site.item);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      throw new InputError(
        `${site.where}: grader module ${quoted(spec.module)} threw on the answer ${quoted(answer)}`,
        [
          reason ?? 'unknown error',
          'a grader must decide every answer: return false for a wrong one',
        ],
      );
    }
    if (typeof result !== 'boolean') {
      const got =
        result !== null && typeof result === 'object' && 'then' in result
          ? 'a Promise'
          : (JSON.stringify(result) ?? typeof result);
      throw new InputError(
        `${site.where}: grader module ${quoted(spec.module)} returned ${got}, expected true or false`,
        ['grade(answer, item) must return true or false, synchronously'],
      );
    }
    return { correct: result, reading: result ? 'module: pass' : 'module: fail' };
  },
  describe(spec) {
    return `module ${spec.module}`;
  },
  explain(spec) {
    return [
      `the module ${JSON.stringify(spec.module)} of the repository says right or wrong`,
      `its file's SHA-256: ${spec.sha256.slice(0, 12)}…`,
      spec.expected === null ? '' : `expected passed to it: ${JSON.stringify(spec.expected)}`,
    ].filter(Boolean);
  },
};

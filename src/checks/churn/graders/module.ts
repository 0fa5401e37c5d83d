/**
 * `module`: a JavaScript file of the repository exporting `grade(answer, item)`, which returns
 * true or false, for what the other graders cannot express. It is the repository's own code,
 * run in model-gate's process whenever answers are graded (at run time and by every analysis,
 * `model-gate analyze` included). Its fingerprint covers the file's bytes, not the files it
 * imports.
 */
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { InputError } from '../../../errors.js';
import { z } from 'zod';
import type { GraderOptions } from './options.js';
import { quoted } from './text.js';
import type { GradedItem, Grade, ModuleSpec } from './types.js';

export const MODULE_OPTIONS = { module: z.string().nullish(), expected: z.unknown().optional() };

const EXTENSIONS = ['.js', '.mjs', '.cjs'];

export interface ModuleSite {
  /** Folder of the items file: module paths are relative to it. */
  baseDir: string;
  /** `items.yml:12 (item "x")`, for messages about the module's behaviour. */
  where: string;
}

export function buildModule(
  options: GraderOptions<typeof MODULE_OPTIONS>,
  expected: unknown,
  site: ModuleSite,
): ModuleSpec | null {
  const module = options.value('module');
  if (!options.ok) return null;
  if (typeof module !== 'string' || module.trim() === '') {
    options.problem('needs `module`, the path of a JavaScript file exporting grade(answer, item)');
    return null;
  }
  if (!EXTENSIONS.includes(path.extname(module).toLowerCase())) {
    options.problem(`module ${quoted(module)}: expected a .js, .mjs or .cjs file`);
    return null;
  }
  const file = path.resolve(site.baseDir, module);
  let bytes: Buffer;
  try {
    if (!statSync(file).isFile()) throw new Error('not a file');
    bytes = readFileSync(file);
  } catch {
    options.problem(`module ${quoted(module)} not found (paths are relative to the items file)`);
    return null;
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return options.ok ? { type: 'module', module, sha256, expected: expected ?? null } : null;
}

type GradeFunction = (answer: string, item: Readonly<GradedItem>) => unknown;

/** The module's `grade`, loaded once per file. */
const loaded = new Map<string, Promise<GradeFunction>>();

export async function loadModuleGrade(spec: ModuleSpec, site: ModuleSite): Promise<GradeFunction> {
  const file = path.resolve(site.baseDir, spec.module);
  let pending = loaded.get(file);
  if (!pending) {
    pending = importGrade(file, spec.module, site.where);
    loaded.set(file, pending);
    pending.catch(() => loaded.delete(file));
  }
  return pending;
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

/** Calls the module on one answer; anything but true or false is the module's mistake. */
export function gradeWithModule(
  fn: GradeFunction,
  spec: ModuleSpec,
  item: Readonly<GradedItem>,
  answer: string,
  where: string,
): Grade {
  let result: unknown;
  try {
    result = fn(answer, item);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new InputError(
      `${where}: grader module ${quoted(spec.module)} threw on the answer ${quoted(answer)}`,
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
      `${where}: grader module ${quoted(spec.module)} returned ${got}, expected true or false`,
      ['grade(answer, item) must return true or false, synchronously'],
    );
  }
  return { correct: result, reading: result ? 'module: pass' : 'module: fail' };
}

export function describeModule(spec: ModuleSpec): string {
  return `module ${spec.module}`;
}

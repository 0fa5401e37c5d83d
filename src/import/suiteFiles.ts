/**
 * The files a promptfoo suite names, found and read as promptfoo finds them: `file://x`, a
 * bare relative path where promptfoo takes one for a file, a pattern (`cases/*.yaml`,
 * `tests/**\/*.csv`) or a folder of test files. Every file is read through the user-file reader
 * (its size limit, no pipes nor devices) and must lie inside the suite's repository: a suite
 * names its own files, and `../../elsewhere` or a link out of the repository is refused.
 *
 * Patterns are matched here (Node 20 has no stable `fs.glob`): `*` and `?` within one path
 * part, `**` for any number of folders; matches come sorted, as a listing would show them.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { MAX_JSON_ITEMS_BYTES, readLimitedFile } from '../config/limits.js';
import { decodeUserText } from '../config/textFile.js';
import { parseYamlDocument } from '../config/yaml.js';
import { InputError } from '../errors.js';
import { insideFolder, repositoryRoot } from '../graders/repositoryRoot.js';

/** Folders never walked by a pattern: they hold no suite files and may be huge. */
const SKIPPED_FOLDERS = new Set(['node_modules', '.git']);
/** Files a pattern may list before the suite is taken for a mistake. */
const MAX_MATCHES = 10_000;

export function isPattern(reference: string): boolean {
  return /[*?]/.test(reference);
}

/** `file://x` → `x`; a bare text → itself. */
export function stripFileScheme(value: string): string {
  return value.startsWith('file://') ? value.slice('file://'.length) : value;
}

/** Whether a bare text reads as a relative file path with one of these extensions. */
export function looksLikePath(value: string, extensions: readonly string[]): boolean {
  if (/[\s{}]/.test(value.trim()) || value.trim() !== value) return false;
  const extension = path.extname(value).toLowerCase();
  return extensions.includes(extension) && /^[\w.*?/\\-]+$/.test(value);
}

function partMatcher(part: string): RegExp {
  const source = part
    .split('')
    .map((c) => (c === '*' ? '[^/]*' : c === '?' ? '[^/]' : c.replace(/[.+^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}$`);
}

function listFolder(folder: string): { name: string; folder: boolean }[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith('.') && !SKIPPED_FOLDERS.has(entry.name))
      .map((entry) => ({ name: entry.name, folder: entry.isDirectory() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** The files a pattern matches, relative to `dir`, sorted; none: an empty list. */
export function matchPattern(dir: string, pattern: string): string[] {
  const parts = pattern.split(/[/\\]/).filter((p) => p !== '' && p !== '.');
  const found: string[] = [];
  const walk = (relative: string, at: number): void => {
    if (found.length > MAX_MATCHES) return;
    const part = parts[at];
    if (part === undefined) return;
    const last = at === parts.length - 1;
    if (part === '**') {
      walk(relative, at + 1);
      for (const entry of listFolder(path.join(dir, relative))) {
        if (entry.folder) walk(path.join(relative, entry.name), at);
      }
      return;
    }
    if (!isPattern(part)) {
      const next = path.join(relative, part);
      if (last) {
        if (pathKind(path.join(dir, next)) === 'file') found.push(next);
      } else walk(next, at + 1);
      return;
    }
    const matcher = partMatcher(part);
    for (const entry of listFolder(path.join(dir, relative))) {
      if (!matcher.test(entry.name)) continue;
      const next = path.join(relative, entry.name);
      if (last && !entry.folder) found.push(next);
      else if (!last && entry.folder) walk(next, at + 1);
    }
  };
  walk('', 0);
  if (found.length > MAX_MATCHES) {
    throw new InputError(`${pattern}: matches more than ${MAX_MATCHES} files`, [
      'narrow the pattern to the suite’s own files',
    ]);
  }
  return [...new Set(found)].map((f) => f.split(path.sep).join('/'));
}

/** What the path is; null when there is nothing there (or something else, a device). */
export function pathKind(file: string): 'file' | 'folder' | null {
  try {
    const stat = statSync(file);
    return stat.isFile() ? 'file' : stat.isDirectory() ? 'folder' : null;
  } catch {
    return null;
  }
}

/** The files of a folder that hold tests, sorted. */
export function testFilesOf(dir: string, folder: string): string[] {
  return listFolder(path.resolve(dir, folder))
    .filter((e) => !e.folder && /\.(ya?ml|json|jsonl|csv)$/i.test(e.name))
    .map((e) => path.posix.join(folder.replace(/\\/g, '/').replace(/\/+$/, ''), e.name));
}

/** Refuses a file of the suite that lies outside its repository (a link out included). */
function refuseOutside(dir: string, file: string, reference: string): void {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    return; // not there: the reader says so
  }
  const root = repositoryRoot(dir);
  if (!insideFolder(real, root)) {
    throw new InputError(`${reference}: outside the suite's repository`, [
      'a promptfoo suite is imported with the files of its own repository only',
    ]);
  }
}

/** A file of the suite as text (relative to `dir`). */
export function readText(dir: string, reference: string): string {
  const file = path.resolve(dir, reference);
  refuseOutside(dir, file, reference);
  const bytes = readLimitedFile(file, reference, MAX_JSON_ITEMS_BYTES, 'promptfoo file');
  if (bytes === null) throw new InputError(`${reference}: not found`);
  return decodeUserText(bytes, reference);
}

/** A YAML or JSON file's value (JSON is YAML); JSON Lines: the list of its lines' values. */
export function readData(dir: string, reference: string): unknown {
  const text = readText(dir, reference);
  if (path.extname(reference).toLowerCase() === '.jsonl') {
    return text
      .split(/\r?\n/)
      .map((line, i) => ({ line: line.trim(), i }))
      .filter(({ line }) => line !== '')
      .map(({ line, i }) => {
        try {
          return JSON.parse(line) as unknown;
        } catch (error) {
          throw new InputError(`${reference}:${i + 1}: not JSON (${(error as Error).message})`);
        }
      });
  }
  return parseYamlDocument(text, reference).doc.toJS();
}

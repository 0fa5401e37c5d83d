/**
 * Reading a promptfoo suite: its prompts (inline texts, `{raw, label}` objects, text or JSON
 * chat files; a .txt file holds several prompts separated by `---` lines) and its tests
 * (inline, or YAML, JSON, JSON Lines or CSV files), with `defaultTest` merged into each test.
 * Files are named as promptfoo names them (suiteFiles.ts): `file://`, a bare relative path
 * where promptfoo takes one (a test file, a prompt file that exists), a pattern or a folder.
 * What cannot be read faithfully is said per prompt or test, never guessed; every key the
 * import does not read is named in `notes`.
 */

import path from 'node:path';
import { MAX_JSON_ITEMS_BYTES, readLimitedFile } from '../config/limits.js';
import { decodeUserText } from '../config/textFile.js';
import { parseYamlDocument } from '../config/yaml.js';
import { InputError } from '../errors.js';
import { isMapping } from '../render/json.js';
import { readCsv } from './csv.js';
import {
  isPattern,
  looksLikePath,
  matchPattern,
  pathKind,
  readData,
  readText,
  stripFileScheme,
  testFilesOf,
} from './suiteFiles.js';

/** One prompt: its texts (a chat of a system and a user message, or one user text). */
export interface SuitePrompt {
  label: string;
  /** Template of the system message, or null. */
  system: string | null;
  /** Template of the user message; null with `problem` when the prompt cannot be converted. */
  user: string | null;
  problem?: string;
}

export interface SuiteTest {
  description: string | null;
  vars: Record<string, unknown>;
  assert: unknown[];
  metadata: Record<string, unknown>;
  threshold: number | null;
  /** Came from a CSV file: lists are comma-separated texts. */
  csv: boolean;
  /** Why the whole test cannot be converted, when it cannot. */
  problem?: string;
}

export interface Suite {
  prompts: SuitePrompt[];
  tests: SuiteTest[];
  dir: string;
  /** What the suite holds that the import does not use, or reads differently. */
  notes: string[];
}

/** Top-level keys the import reads; every other one is named on stderr. */
const USED_KEYS = new Set(['prompts', 'tests', 'defaultTest']);
/** Why a top-level key promptfoo reads is not used here. */
const UNUSED_WHY: Record<string, string> = {
  description: 'the items file names the suite it came from',
  providers: 'the models compared come from model-gate.yml',
  assert:
    'promptfoo reads no top-level assert; assertions for every test go under defaultTest.assert',
  scenarios: 'scenarios (tests multiplied by variable sets) are not converted',
  evaluateOptions: 'model-gate.yml sets how requests are made',
  outputPath: 'model-gate writes its own report',
  env: 'model-gate reads no promptfoo environment',
  nunjucksFilters: 'a prompt that uses a filter is left out',
};
/** Test keys the import reads. */
const TEST_KEYS = new Set(['description', 'vars', 'assert', 'metadata', 'threshold', 'options']);
/** defaultTest keys the import reads. */
const DEFAULT_KEYS = new Set(['vars', 'assert', 'metadata']);

export function readSuite(file: string, name: string): Suite {
  let text: string;
  try {
    const bytes = readLimitedFile(file, name, MAX_JSON_ITEMS_BYTES, 'promptfoo config');
    if (bytes === null) throw new Error('not found');
    text = decodeUserText(bytes, name);
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${name}: promptfoo config not found or unreadable`);
  }
  const config = parseYamlDocument(text, name).doc.toJS() as unknown;
  if (!isMapping(config)) {
    throw new InputError(`${name}: expected a promptfoo config (a mapping with prompts and tests)`);
  }
  const dir = path.dirname(path.resolve(file));
  const notes: string[] = [];
  for (const key of Object.keys(config).filter((k) => !USED_KEYS.has(k))) {
    notes.push(`not used: top-level ${key}${UNUSED_WHY[key] ? `: ${UNUSED_WHY[key]}` : ''}`);
  }
  const prompts = readPrompts(config['prompts'], dir, name, notes);
  const defaults = readDefaults(config['defaultTest'], dir, notes);
  const unusedTestKeys = new Map<string, number>();
  const tests = readTests(config['tests'], dir, name, unusedTestKeys).map((t) =>
    withDefaults(t, defaults),
  );
  for (const [key, count] of unusedTestKeys) {
    notes.push(`not used: the test key ${key} (${count} ${count === 1 ? 'test' : 'tests'})`);
  }
  return { prompts, tests, dir, notes };
}

function readDefaults(raw: unknown, dir: string, notes: string[]): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = readData(dir, stripFileScheme(raw));
    } catch (error) {
      throw new InputError(`defaultTest: ${raw}: ${(error as Error).message}`);
    }
  }
  if (value === undefined || value === null) return {};
  if (!isMapping(value)) throw new InputError('defaultTest: expected a mapping or file://');
  for (const key of Object.keys(value).filter((k) => !DEFAULT_KEYS.has(k))) {
    notes.push(`not used: defaultTest.${key}`);
  }
  return value;
}

function readPrompts(raw: unknown, dir: string, name: string, notes: string[]): SuitePrompt[] {
  if (raw === undefined)
    throw new InputError(`${name}: no prompts`, ['promptfoo suites list prompts']);
  const entries: { value: string; label: string | null }[] = [];
  const list = typeof raw === 'string' ? [raw] : Array.isArray(raw) ? raw : null;
  if (list === null && isMapping(raw)) {
    for (const [value, label] of Object.entries(raw)) {
      entries.push({ value, label: typeof label === 'string' ? label : null });
    }
  }
  for (const entry of list ?? []) {
    if (typeof entry === 'string') entries.push({ value: entry, label: null });
    else if (isMapping(entry)) {
      const value = entry['raw'] ?? entry['id'];
      const label = typeof entry['label'] === 'string' ? entry['label'] : null;
      if (typeof value === 'string') entries.push({ value, label });
    }
  }
  if (entries.length === 0) throw new InputError(`${name}: no prompts it can read`);
  return entries.flatMap((entry, i) =>
    promptsOf(entry.value, entry.label ?? `prompt ${i + 1}`, dir, notes),
  );
}

/** Extensions of the prompt files promptfoo reads as text or chat, with or without file://. */
const PROMPT_FILES = ['.txt', '.md', '.json', '.yaml', '.yml', '.j2', '.jinja'];
const PROMPT_FUNCTIONS = ['.js', '.cjs', '.mjs', '.ts', '.py'];

/** A prompt entry: inline text, or the file(s) it names (file://, a bare path, a pattern). */
function promptsOf(value: string, label: string, dir: string, notes: string[]): SuitePrompt[] {
  const explicit = value.startsWith('file://');
  const reference = stripFileScheme(value);
  const bare = !explicit && looksLikePath(value, [...PROMPT_FILES, ...PROMPT_FUNCTIONS]);
  if (!explicit && !bare) return [chatOrText(value, label)];
  if (bare && !isPattern(reference) && pathKind(path.resolve(dir, reference)) !== 'file') {
    notes.push(
      `${label}: ${JSON.stringify(value)} reads like a file path but no such file: taken as the prompt text, as promptfoo does`,
    );
    return [chatOrText(value, label)];
  }
  if (!isPattern(reference)) return promptFile(reference, value, label, dir);
  const files = matchPattern(dir, reference);
  if (files.length === 0) {
    return [{ label, system: null, user: null, problem: `${value}: no file matches` }];
  }
  return files.flatMap((file) => promptFile(file, file, `${label} ${file}`, dir));
}

function promptFile(reference: string, shown: string, label: string, dir: string): SuitePrompt[] {
  const extension = path.extname(reference).toLowerCase();
  const failed = (problem: string): SuitePrompt[] => [{ label, system: null, user: null, problem }];
  if (PROMPT_FUNCTIONS.includes(extension)) {
    return failed(`${shown}: a prompt function is not converted`);
  }
  let text: string;
  try {
    text = readText(dir, reference);
  } catch (error) {
    return failed(
      `${shown}: ${error instanceof InputError ? error.message : 'file not found or unreadable'}`,
    );
  }
  if (extension === '.json' || extension === '.yaml' || extension === '.yml') {
    const data = extension === '.json' ? text : JSON.stringify(readData(dir, reference));
    return [chatOrText(data, label)];
  }
  const parts = text.split(/\r?\n---\r?\n/);
  return parts.map((part, i) => chatOrText(part, parts.length > 1 ? `${label} #${i + 1}` : label));
}

/** A prompt text, or a JSON chat (a list of {role, content}) of a system and a user message. */
function chatOrText(text: string, label: string): SuitePrompt {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[')) return { label, system: null, user: text };
  let messages: unknown;
  try {
    messages = JSON.parse(trimmed);
  } catch {
    return { label, system: null, user: text };
  }
  if (!Array.isArray(messages)) return { label, system: null, user: text };
  const roles = messages.map((m) => (isMapping(m) ? m['role'] : null));
  const contents = messages.map((m) => (isMapping(m) ? m['content'] : null));
  const single = roles.length === 1 && roles[0] === 'user';
  const pair = roles.length === 2 && roles[0] === 'system' && roles[1] === 'user';
  if ((!single && !pair) || contents.some((c) => typeof c !== 'string')) {
    return {
      label,
      system: null,
      user: null,
      problem:
        'a chat other than one system and one user message (several turns are not converted)',
    };
  }
  return {
    label,
    system: pair ? (contents[0] as string) : null,
    user: contents[contents.length - 1] as string,
  };
}

/** Tests: a list (of tests and of test files), or one test file, folder or pattern. */
function readTests(
  raw: unknown,
  dir: string,
  name: string,
  unused: Map<string, number>,
): SuiteTest[] {
  if (raw === undefined) throw new InputError(`${name}: no tests`);
  if (typeof raw === 'string') return testFiles(raw, dir, unused);
  if (!Array.isArray(raw)) {
    throw new InputError(`${name}: tests must be a list, or the path of a YAML, JSON or CSV file`);
  }
  // A text in the list is a test file (promptfoo reads it so, with or without file://).
  return raw.flatMap((entry) =>
    typeof entry === 'string' ? testFiles(entry, dir, unused) : [inlineTest(entry, dir, unused)],
  );
}

/** The tests of `file://x`, a bare path, a folder of test files or a pattern. */
function testFiles(value: string, dir: string, unused: Map<string, number>): SuiteTest[] {
  const reference = stripFileScheme(value);
  if (/^[a-z][\w+.-]*:\/\//i.test(reference)) {
    throw new InputError(`tests: ${value}: tests from a remote source are not converted`, [
      'export them to a YAML, JSON or CSV file of the repository',
    ]);
  }
  const files = isPattern(reference)
    ? matchPattern(dir, reference)
    : pathKind(path.resolve(dir, reference)) === 'folder'
      ? testFilesOf(dir, reference)
      : [reference];
  if (files.length === 0) throw new InputError(`tests: ${value}: no test file matches`);
  return files.flatMap((file) => testFile(file, value, dir, unused));
}

function testFile(
  reference: string,
  shown: string,
  dir: string,
  unused: Map<string, number>,
): SuiteTest[] {
  const extension = path.extname(reference).toLowerCase();
  if (['.js', '.cjs', '.mjs', '.ts', '.py'].includes(extension)) {
    throw new InputError(`tests: ${shown}: tests made by code are not converted`, [
      'write the tests it makes to a YAML, JSON or CSV file',
    ]);
  }
  if (extension === '.csv') return readCsv(readText(dir, reference)).map(csvTest);
  const data = readData(dir, reference);
  const list = Array.isArray(data) ? data : isMapping(data) ? [data] : null;
  if (list === null) {
    throw new InputError(`${reference}: expected a list of tests (or one test)`);
  }
  return list.flatMap((entry) =>
    typeof entry === 'string'
      ? testFiles(entry, path.dirname(path.resolve(dir, reference)), unused)
      : [inlineTest(entry, dir, unused)],
  );
}

function inlineTest(entry: unknown, dir: string, unused: Map<string, number>): SuiteTest {
  const test = isMapping(entry) ? entry : {};
  for (const key of Object.keys(test).filter((k) => !TEST_KEYS.has(k))) {
    unused.set(key, (unused.get(key) ?? 0) + 1);
  }
  const read = readVars(test['vars'], dir);
  const vars = 'vars' in read ? read.vars : {};
  const problem = 'problem' in read ? read.problem : loadFileVars(vars, dir);
  const options = isMapping(test['options']) ? test['options'] : {};
  return {
    description: typeof test['description'] === 'string' ? test['description'] : null,
    vars,
    assert: Array.isArray(test['assert']) ? test['assert'] : [],
    metadata: isMapping(test['metadata']) ? test['metadata'] : {},
    threshold: typeof test['threshold'] === 'number' ? test['threshold'] : null,
    csv: false,
    ...(options['transform'] !== undefined
      ? { problem: 'options.transform changes the output before the test: not converted' }
      : problem
        ? { problem }
        : {}),
  };
}

/** A test's vars: a mapping, or a YAML or JSON file of one (`file://vars.yaml` or a bare path). */
function readVars(
  raw: unknown,
  dir: string,
): { vars: Record<string, unknown> } | { problem: string } {
  if (isMapping(raw)) return { vars: { ...raw } };
  if (typeof raw !== 'string') return { vars: {} };
  try {
    const data = readData(dir, stripFileScheme(raw));
    if (isMapping(data)) return { vars: { ...data } };
    return { problem: `vars: ${raw} does not hold a mapping of variables` };
  } catch (error) {
    return { problem: `vars: ${raw}: ${(error as Error).message}` };
  }
}

/** `file://` values: text files as text, YAML and JSON as data; lists (test matrices) are not read. */
function loadFileVars(vars: Record<string, unknown>, dir: string): string | undefined {
  for (const [key, value] of Object.entries(vars)) {
    if (Array.isArray(value)) return `vars.${key} is a list (a matrix of tests): not converted`;
    if (typeof value !== 'string' || !value.startsWith('file://')) continue;
    const reference = value.slice('file://'.length);
    const extension = path.extname(reference).toLowerCase();
    const data = ['.json', '.yaml', '.yml'].includes(extension);
    if (!data && !['.txt', '.md'].includes(extension)) {
      return `vars.${key}: ${value} is not a text, YAML or JSON file: not converted`;
    }
    try {
      vars[key] = data ? readData(dir, reference) : readText(dir, reference);
    } catch (error) {
      return `vars.${key}: ${value}: ${(error as Error).message}`;
    }
  }
  return undefined;
}

/** A CSV row: its columns are variables; `__expected…` columns hold assertions in short form. */
function csvTest(row: Record<string, string>): SuiteTest {
  const vars: Record<string, unknown> = {};
  const assert: unknown[] = [];
  for (const [column, value] of Object.entries(row)) {
    if (column.startsWith('__expected')) {
      if (value.trim() !== '') assert.push(shortAssertion(value));
    } else if (!column.startsWith('__')) vars[column] = value;
  }
  return {
    description: row['__description'] || null,
    vars,
    assert,
    metadata: {},
    threshold: null,
    csv: true,
  };
}

/** Types a CSV cell may name before a colon; `grade`, `fn` and `eval` are short names. */
const SHORT_TYPES: Record<string, string> = Object.fromEntries([
  ...[
    'equals',
    'contains',
    'icontains',
    'contains-all',
    'icontains-all',
    'contains-any',
    'icontains-any',
    'starts-with',
    'regex',
    'is-json',
    'contains-json',
  ].flatMap((t) => [
    [t, t],
    [`not-${t}`, `not-${t}`],
  ]),
  ['javascript', 'javascript'],
  ['python', 'python'],
  ['llm-rubric', 'llm-rubric'],
  ['similar', 'similar'],
  ['grade', 'llm-rubric'],
  ['fn', 'javascript'],
  ['eval', 'javascript'],
]);

/** `type: value`, `type` alone, or a plain text (equals), as promptfoo's CSV files write them. */
function shortAssertion(text: string): Record<string, unknown> {
  const match = /^([a-z][a-z-]*)(?::\s?([\s\S]*))?$/.exec(text.trim());
  const type = match?.[1] === undefined ? undefined : SHORT_TYPES[match[1]];
  if (!match || type === undefined) return { type: 'equals', value: text };
  return match[2] === undefined ? { type } : { type, value: match[2] };
}

function withDefaults(test: SuiteTest, defaults: Record<string, unknown>): SuiteTest {
  const vars = isMapping(defaults['vars']) ? defaults['vars'] : {};
  const assert = Array.isArray(defaults['assert']) ? defaults['assert'] : [];
  const metadata = isMapping(defaults['metadata']) ? defaults['metadata'] : {};
  return {
    ...test,
    vars: { ...vars, ...test.vars },
    assert: [...assert, ...test.assert],
    metadata: { ...metadata, ...test.metadata },
  };
}

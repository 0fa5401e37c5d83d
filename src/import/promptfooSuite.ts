/**
 * Reading a promptfoo suite: its prompts (inline texts, `{raw, label}` objects, `file://` text
 * or JSON chat files; a .txt file holds several prompts separated by `---` lines) and its tests
 * (inline, or a `file://` YAML, JSON or CSV file), with `defaultTest` merged into each test.
 * What cannot be read faithfully is said per prompt or test, never guessed.
 */

import path from 'node:path';
import { MAX_JSON_ITEMS_BYTES, readLimitedFile } from '../config/limits.js';
import { decodeUserText } from '../config/textFile.js';
import { parseYamlDocument } from '../config/yaml.js';
import { InputError } from '../errors.js';
import { isMapping } from '../render/json.js';
import { readCsv } from './csv.js';

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
}

export function readText(dir: string, reference: string): string {
  const bytes = readSuiteFile(path.resolve(dir, reference), reference);
  if (bytes === null) throw new InputError(`${reference}: not found`);
  return decodeUserText(bytes, reference);
}

/** A YAML or JSON file's value (JSON is YAML). */
export function readData(dir: string, reference: string): unknown {
  return parseYamlDocument(readText(dir, reference), reference).doc.toJS();
}

export function readSuite(file: string, name: string): Suite {
  let text: string;
  try {
    const bytes = readSuiteFile(file, name);
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
  const prompts = readPrompts(config['prompts'], dir, name);
  const defaults = isMapping(config['defaultTest']) ? config['defaultTest'] : {};
  const tests = readTests(config['tests'], dir, name).map((t) => withDefaults(t, defaults));
  return { prompts, tests, dir };
}

function readPrompts(raw: unknown, dir: string, name: string): SuitePrompt[] {
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
    promptsOf(entry.value, entry.label ?? `prompt ${i + 1}`, dir),
  );
}

function promptsOf(value: string, label: string, dir: string): SuitePrompt[] {
  if (!value.startsWith('file://')) return [chatOrText(value, label)];
  const reference = value.slice('file://'.length);
  const extension = path.extname(reference).toLowerCase();
  const failed = (problem: string): SuitePrompt[] => [{ label, system: null, user: null, problem }];
  if (/[*?]/.test(reference)) return failed(`${value}: file patterns are not converted`);
  if (['.js', '.cjs', '.mjs', '.ts', '.py'].includes(extension)) {
    return failed(`${value}: a prompt function is not converted`);
  }
  let text: string;
  try {
    text = readText(dir, reference);
  } catch {
    return failed(`${value}: file not found or unreadable`);
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

function readTests(raw: unknown, dir: string, name: string): SuiteTest[] {
  if (raw === undefined) throw new InputError(`${name}: no tests`);
  if (typeof raw === 'string' && raw.startsWith('file://')) {
    const reference = raw.slice('file://'.length);
    if (path.extname(reference).toLowerCase() === '.csv') {
      return readCsv(readText(dir, reference)).map(csvTest);
    }
    return readTests(readData(dir, reference), dir, reference);
  }
  if (!Array.isArray(raw)) {
    throw new InputError(`${name}: tests must be a list, or file:// a YAML, JSON or CSV file`);
  }
  return raw.flatMap((entry) => {
    if (typeof entry === 'string' && entry.startsWith('file://'))
      return readTests(entry, dir, name);
    return [inlineTest(entry, dir)];
  });
}

function inlineTest(entry: unknown, dir: string): SuiteTest {
  const test = isMapping(entry) ? entry : {};
  const vars = isMapping(test['vars']) ? { ...test['vars'] } : {};
  const problem = loadFileVars(vars, dir);
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

/** Text files as variable values are read; other files and lists (test matrices) are not. */
function loadFileVars(vars: Record<string, unknown>, dir: string): string | undefined {
  for (const [key, value] of Object.entries(vars)) {
    if (Array.isArray(value)) return `vars.${key} is a list (a matrix of tests): not converted`;
    if (typeof value !== 'string' || !value.startsWith('file://')) continue;
    const reference = value.slice('file://'.length);
    if (!['.txt', '.md'].includes(path.extname(reference).toLowerCase())) {
      return `vars.${key}: ${value} is not a text file: not converted`;
    }
    try {
      vars[key] = readText(dir, reference);
    } catch {
      return `vars.${key}: ${value} not found or unreadable`;
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

/** A file of the suite, read as every user file is (the limit of a JSON items file). */
function readSuiteFile(file: string, shownAs: string): Buffer | null {
  return readLimitedFile(file, shownAs, MAX_JSON_ITEMS_BYTES, 'promptfoo file');
}

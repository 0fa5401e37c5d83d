/**
 * Open items: a prompt of the team's own, sent verbatim as the user message (and `system`, when
 * given, as the system message), whose free-form answer a deterministic grader decides. Fields:
 * `id`, `domain`, `prompt`, optional `system`, `expected`, `grader`, `max-tokens`. The grader is
 * built here, before any request, so a grader that cannot be built (a bad regular expression,
 * a schema Ajv refuses, a missing module) is bad input naming the file, line and item.
 */
import path from 'node:path';
import { buildGrader } from './graders/build.js';
import type { GradedItem, Grader } from './graders/types.js';

export interface OpenItem {
  kind: 'open';
  id: string;
  domain: string;
  /** Sent as the user message, exactly as written. */
  prompt: string;
  /** Sent as the system message when given, exactly as written. */
  system: string | null;
  /** As written in the file (a text, a number, a mapping…); the grader has read it. */
  expected: unknown;
  /** num_predict of the item's requests. */
  maxTokens: number;
  grader: Grader;
  /** Where the item was written, for messages. */
  line: number;
}

/** Tokens an open answer may take when neither the item nor the file says. */
export const DEFAULT_MAX_TOKENS = 256;
export const MAX_MAX_TOKENS = 32768;

export const OPEN_FIELDS = new Set([
  'id',
  'domain',
  'prompt',
  'system',
  'expected',
  'grader',
  'max-tokens',
]);

/** What the file around an open item says: where it is and its defaults. */
export interface OpenItemFile {
  /** The file's name in messages. */
  name: string;
  /** Folder the items file is in: grader modules are found from it. */
  baseDir: string;
  /** `max-tokens` of the file, or DEFAULT_MAX_TOKENS. */
  maxTokens: number;
}

/** An item is open when it has a `prompt`; a multiple-choice item has a `question`. */
export function isOpenItem(fields: Readonly<Record<string, unknown>>): boolean {
  return fields['prompt'] !== undefined;
}

const DEFAULT_DOMAIN = 'general';

/** Reads a `max-tokens` value; null (with a problem pushed) when it is not a usable count. */
export function readMaxTokens(value: unknown, problems: string[]): number | null {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 1) {
    if (value <= MAX_MAX_TOKENS) return value;
  }
  problems.push(
    `max-tokens ${JSON.stringify(value)}: expected an integer from 1 to ${MAX_MAX_TOKENS}`,
  );
  return null;
}

/**
 * Validates one open item; pushes `file:line (item "id"): problem` on `errors` and unknown
 * fields on `warnings`. Returns null when the item has a problem.
 */
export function validateOpenItem(
  fields: Readonly<Record<string, unknown>>,
  line: number,
  file: OpenItemFile,
  errors: string[],
  warnings: string[],
): OpenItem | null {
  const at = `${file.name}:${line}`;
  const unknown = Object.keys(fields).filter((key) => !OPEN_FIELDS.has(key));
  if (unknown.length > 0) {
    warnings.push(
      `${at}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} of an open item (ignored)`,
    );
  }
  const problems: string[] = [];
  const rawId = fields['id'];
  const id =
    typeof rawId === 'number' ? String(rawId) : typeof rawId === 'string' ? rawId.trim() : '';
  if (id === '') problems.push('missing id (expected a non-empty "id")');
  const rawDomain = fields['domain'];
  const domain =
    typeof rawDomain === 'string' && rawDomain.trim() !== '' ? rawDomain.trim() : DEFAULT_DOMAIN;
  if (fields['question'] !== undefined) {
    problems.push('both `prompt` (an open item) and `question` (multiple choice): keep one');
  }
  const prompt = verbatimText(fields['prompt'], 'prompt', problems);
  const system =
    fields['system'] === undefined || fields['system'] === null
      ? null
      : verbatimText(fields['system'], 'system', problems);
  const maxTokens =
    fields['max-tokens'] === undefined
      ? file.maxTokens
      : readMaxTokens(fields['max-tokens'], problems);
  const expected = fields['expected'];
  const label = id === '' ? '' : ` (item "${id}")`;
  const graded: GradedItem = Object.freeze({
    id,
    domain,
    prompt: prompt ?? '',
    system,
    expected: expected ?? null,
  });
  const grader = buildGrader(
    fields['grader'],
    expected,
    { baseDir: file.baseDir, where: `${at}${label}`, item: graded },
    problems,
  );
  if (problems.length > 0 || prompt === null || maxTokens === null || grader === null) {
    for (const problem of problems) errors.push(`${at}${label}: ${problem}`);
    return null;
  }
  return { kind: 'open', id, domain, prompt, system, expected, maxTokens, grader, line };
}

/** A prompt or system text: any non-blank string, kept exactly as written. */
function verbatimText(value: unknown, field: string, problems: string[]): string | null {
  if (typeof value !== 'string' || value.trim() === '') {
    problems.push(`${field} must be a non-empty text`);
    return null;
  }
  return value;
}

/** The folder module paths of a file named `file` are relative to. */
export function itemsFolder(file: string): string {
  return path.dirname(path.resolve(file));
}

/** Loads what the graders need beyond their spec (grader modules), before any request. */
export async function prepareGraders(items: readonly { kind?: string }[]): Promise<void> {
  for (const item of items) {
    if (item.kind === 'open') await (item as OpenItem).grader.prepare();
  }
}

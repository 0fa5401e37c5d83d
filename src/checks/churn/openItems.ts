/**
 * Open items: a prompt of the team's own, sent verbatim as the user message (and `system`, when
 * given, as the system message), whose free-form answer a deterministic grader decides. Fields:
 * `id`, `domain`, `prompt`, optional `system`, `expected`, `grader`, `max-tokens`. The grader is
 * built here, before any request, so a grader that cannot be built (a bad regular expression,
 * a schema Ajv refuses, a missing module) is bad input naming the file, line and item.
 */
import path from 'node:path';
import type { z } from 'zod';
import { issueLine, parseInWords } from '../../config/issues.js';
import { graders } from '../../graders/index.js';
import type { GradedItem, Grader } from '../../graders/types.js';
import { maxTokensSchema, openItemSchema } from './itemSchema.js';

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

/** A problem of one item: the path of the field it is about, and what is wrong there. */
export interface ItemProblem {
  path: readonly PropertyKey[];
  message: string;
}

/** An item's problems as the item schemas found them (see itemSchema.ts). */
export function itemProblems(error: z.ZodError): ItemProblem[] {
  return error.issues.map((issue) => ({ path: issue.path, message: issueLine(issue) }));
}

/** An item is open when it has a `prompt`; a multiple-choice item has a `question`. */
export function isOpenItem(fields: Readonly<Record<string, unknown>>): boolean {
  return fields['prompt'] !== undefined;
}

/** Reads a `max-tokens` value; null (with a problem pushed) when it is not a usable count. */
export function readMaxTokens(value: unknown, problems: string[]): number | null {
  const parsed = parseInWords(maxTokensSchema, value);
  if (parsed.success) return parsed.data;
  problems.push(...itemProblems(parsed.error).map((p) => p.message));
  return null;
}

/**
 * Validates one open item written on `line`; warns about unknown fields on `warnings`.
 * Returns the item, or its problems (each at the path of its field).
 */
export function validateOpenItem(
  fields: Readonly<Record<string, unknown>>,
  line: number,
  file: OpenItemFile,
  warnings: string[],
): OpenItem | ItemProblem[] {
  const unknown = Object.keys(fields).filter((key) => !OPEN_FIELDS.has(key));
  if (unknown.length > 0) {
    warnings.push(
      `${file.name}:${line}: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')} of an open item (ignored)`,
    );
  }
  const parsed = parseInWords(openItemSchema, fields);
  const problems = parsed.success ? [] : itemProblems(parsed.error);
  const read = parsed.success ? parsed.data : null;
  const id = read?.id ?? '';
  // The grader is built whatever the other fields say, so that all of an item's problems
  // are told at once.
  const graderProblems: string[] = [];
  const graded: GradedItem = Object.freeze({
    id,
    domain: read?.domain ?? '',
    prompt: read?.prompt ?? '',
    system: read?.system ?? null,
    expected: fields['expected'] ?? null,
  });
  const label = id === '' ? '' : ` (item "${id}")`;
  const grader = graders.build(
    fields['grader'],
    fields['expected'],
    { baseDir: file.baseDir, where: `${file.name}:${line}${label}`, item: graded },
    graderProblems,
  );
  for (const message of graderProblems) problems.push({ path: ['grader'], message });
  if (!read || grader === null || problems.length > 0) return problems;
  const { maxTokens, ...rest } = read;
  return { kind: 'open', ...rest, maxTokens: maxTokens ?? file.maxTokens, grader, line };
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

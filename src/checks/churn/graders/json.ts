/**
 * `json`: the answer is JSON — the whole answer, or one fenced code block that is the whole
 * answer; with `search`, the first JSON object or array found anywhere in it. With `schema` it
 * must validate against that JSON Schema (draft-07, or 2020-12 when its `$schema` says so);
 * with `expected` (a mapping) every field given there must be present with an equal value.
 */
import { isMapping } from '../../../render/json.js';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { expecting } from '../../../config/issues.js';
import { flag, type GraderOptions } from './options.js';
import { canonicalJson, quoted } from './text.js';
import type { Grade, JsonSpec } from './types.js';

export const JSON_OPTIONS = {
  schema: z
    .record(z.string(), z.unknown().optional(), expecting('a JSON Schema written as a mapping'))
    .nullish(),
  expected: z.unknown().optional(),
  search: flag,
};

/**
 * Unknown keywords and formats are errors (a misspelt `propertes` would validate anything);
 * keywords without a `type` beside them are allowed, as most hand-written schemas have them.
 */
const AJV_OPTIONS = {
  strictSchema: true,
  strictNumbers: true,
  strictTypes: false,
  strictTuples: false,
  strictRequired: false,
  allErrors: false,
  // Schemas with the same $id in two items must not collide in a shared instance.
  addUsedSchema: false,
} as const;

let draft07: Ajv | null = null;
let draft2020: Ajv2020 | null = null;

function validatorFor(schema: Record<string, unknown>): ValidateFunction {
  const dialect = typeof schema['$schema'] === 'string' ? schema['$schema'] : '';
  if (dialect.includes('2020-12')) {
    draft2020 ??= new Ajv2020(AJV_OPTIONS);
    return draft2020.compile(schema);
  }
  draft07 ??= new Ajv(AJV_OPTIONS);
  return draft07.compile(schema);
}

const validators = new WeakMap<JsonSpec, ValidateFunction>();

export function buildJson(
  options: GraderOptions<typeof JSON_OPTIONS>,
  expected: unknown,
): JsonSpec | null {
  const search = options.boolean('search', false);
  const rawSchema = options.value('schema');
  let schema: Record<string, unknown> | null = null;
  if (rawSchema !== undefined && rawSchema !== null) {
    try {
      validatorFor(rawSchema);
      schema = rawSchema;
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
      options.problem(`schema is not a usable JSON Schema: ${reason}`);
    }
  }
  let fields: Record<string, unknown> | null = null;
  if (expected !== undefined && expected !== null) {
    if (isMapping(expected)) fields = expected;
    else options.problem('expected must be a mapping of the fields the answer must hold');
  }
  if (!options.ok) return null;
  const spec: JsonSpec = { type: 'json', schema, fields, search };
  if (schema) validators.set(spec, validatorFor(schema));
  return spec;
}

/** The JSON value an answer holds, or undefined. */
export function readJson(answer: string, search: boolean): unknown {
  const whole = parse(answer.trim());
  if (whole !== undefined) return whole;
  const fence = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(answer.trim());
  if (fence) return parse(fence[1] as string);
  if (!search) return undefined;
  const inner = /```[\w-]*[ \t]*\r?\n([\s\S]*?)```/.exec(answer);
  const fromFence = inner ? parse(inner[1] as string) : undefined;
  return fromFence !== undefined ? fromFence : firstEmbedded(answer);
}

function parse(text: string): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Starts of embedded JSON tried before giving up: bounds the work on a long answer. */
const MAX_STARTS = 64;

/** The first `{…}` or `[…]` in the text that parses, brackets balanced outside strings. */
function firstEmbedded(text: string): unknown {
  let tried = 0;
  for (let start = 0; start < text.length && tried < MAX_STARTS; start++) {
    const c = text[start];
    if (c !== '{' && c !== '[') continue;
    tried++;
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    const value = parse(text.slice(start, end + 1));
    if (value !== undefined) return value;
  }
  return undefined;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      depth--;
      if (depth === 0) return i;
    }
  }
  return -1;
}

export function gradeJson(spec: JsonSpec, answer: string): Grade {
  const value = readJson(answer, spec.search);
  if (value === undefined) return { correct: false, reading: 'not JSON' };
  const validate = validators.get(spec) ?? (spec.schema ? validatorFor(spec.schema) : null);
  if (validate && spec.schema) validators.set(spec, validate);
  if (validate && !validate(value)) {
    const error = validate.errors?.[0];
    const where = error?.instancePath === '' ? '(root)' : (error?.instancePath ?? '');
    return { correct: false, reading: `schema: ${where} ${error?.message ?? 'invalid'}`.trim() };
  }
  if (spec.fields) {
    if (!isMapping(value)) return { correct: false, reading: 'JSON, not an object' };
    for (const [field, wanted] of Object.entries(spec.fields)) {
      const got = Object.hasOwn(value, field) ? value[field] : undefined;
      if (got === undefined) return { correct: false, reading: `no field ${quoted(field)}` };
      if (canonicalJson(got) !== canonicalJson(wanted)) {
        return {
          correct: false,
          reading: `field ${quoted(field)} is ${quoted(canonicalJson(got), 40)}`,
        };
      }
    }
  }
  return { correct: true, reading: 'valid JSON' };
}

export function describeJson(spec: JsonSpec): string {
  const fieldCount = spec.fields ? Object.keys(spec.fields).length : 0;
  const parts = [
    spec.schema ? 'schema' : '',
    fieldCount > 0 ? `${fieldCount} field${fieldCount === 1 ? '' : 's'}` : '',
    spec.search ? 'searched' : '',
  ].filter(Boolean);
  return parts.length === 0 ? 'json' : `json (${parts.join(', ')})`;
}

/**
 * `json`: the answer is JSON — the whole answer, or one fenced code block that is the whole
 * answer; with `search`, the first JSON object or array found anywhere in it. With `schema` it
 * must validate against that JSON Schema (draft-07, or 2020-12 when its `$schema` says so);
 * with `expected` (a mapping) every field given there must be present with an equal value.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { RegExpEngine } from 'ajv/dist/types/index.js';
import { z } from 'zod';
import { expecting } from '../config/issues.js';
import { isMapping } from '../render/json.js';
import { compileLinear } from './linearRegex.js';
import { flag } from './options.js';
import { canonicalJson, quoted } from './text.js';
import type { GraderKind, GraderSpec } from './types.js';

export interface JsonSpec extends GraderSpec {
  type: 'json';
  /** JSON Schema the answer must validate against, or null. */
  schema: Record<string, unknown> | null;
  /** Fields the answer must hold with these values, or null. */
  fields: Record<string, unknown> | null;
  /** Take the first JSON value found anywhere in the answer, not only the whole answer. */
  search: boolean;
}

const OPTIONS = {
  schema: z
    .record(z.string(), z.unknown().optional(), expecting('a JSON Schema written as a mapping'))
    .nullish(),
  search: flag,
};

/**
 * A schema's `pattern` and `patternProperties` run on the same linear-time engine as the regex
 * grader: a pattern of the items file never backtracks on an answer.
 */
const linearEngine: RegExpEngine = Object.assign(
  (pattern: string, unicode: string) => compileLinear(pattern, unicode),
  { code: 'compileLinear' },
);

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
  code: { regExp: linearEngine },
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

function validatorOf(spec: JsonSpec): ValidateFunction | null {
  if (!spec.schema) return null;
  let validate = validators.get(spec);
  if (!validate) {
    validate = validatorFor(spec.schema);
    validators.set(spec, validate);
  }
  return validate;
}

/** The simplest answer of the spec's shape: the expected fields over the schema's instance. */
function jsonAnswer(spec: JsonSpec): unknown {
  const shape = spec.schema ? instanceOf(spec.schema, 0) : null;
  if (spec.fields) {
    return { ...(isMapping(shape) ? shape : {}), ...spec.fields };
  }
  return shape ?? { answer: 'ok' };
}

/** The expected object with one field changed, or the schema's shape with a required field gone. */
function jsonWrong(spec: JsonSpec, rng: { int(n: number): number }): string | null {
  const answer = jsonAnswer(spec);
  if (!isMapping(answer)) return null;
  const keys = spec.fields ? Object.keys(spec.fields) : [];
  if (keys.length > 0) {
    const key = keys[rng.int(keys.length)] as string;
    return JSON.stringify({ ...answer, [key]: changed(answer[key]) });
  }
  const required = spec.schema?.['required'];
  if (Array.isArray(required) && typeof required[0] === 'string') {
    const { [required[0]]: _dropped, ...rest } = answer;
    return JSON.stringify(rest);
  }
  return null;
}

function changed(value: unknown): unknown {
  if (typeof value === 'number') return value + 1;
  if (typeof value === 'boolean') return !value;
  if (typeof value === 'string') return `${value} (unsure)`;
  return null;
}

/** A value of a JSON Schema's shape: the simplest one its keywords allow. */
function instanceOf(schema: unknown, depth: number): unknown {
  if (!isMapping(schema) || depth > 8) return null;
  if ('const' in schema) return schema['const'];
  const choices = schema['enum'];
  if (Array.isArray(choices) && choices.length > 0) return choices[0];
  const declared = schema['type'];
  const type = Array.isArray(declared) ? declared[0] : declared;
  const minimum = typeof schema['minimum'] === 'number' ? schema['minimum'] : 1;
  switch (type) {
    case 'array': {
      const count = typeof schema['minItems'] === 'number' ? Math.max(1, schema['minItems']) : 1;
      return Array.from({ length: count }, () => instanceOf(schema['items'], depth + 1));
    }
    case 'string': {
      const length = typeof schema['minLength'] === 'number' ? schema['minLength'] : 4;
      return 'x'.repeat(Math.max(1, length));
    }
    case 'integer':
      return Math.ceil(minimum);
    case 'number':
      return minimum;
    case 'boolean':
      return true;
    case 'null':
      return null;
    default: {
      const properties = isMapping(schema['properties']) ? schema['properties'] : {};
      return Object.fromEntries(
        Object.entries(properties).map(([key, sub]) => [key, instanceOf(sub, depth + 1)]),
      );
    }
  }
}

export const json: GraderKind<JsonSpec, typeof OPTIONS> = {
  type: 'json',
  options: OPTIONS,
  build(options, expected) {
    const search = options.boolean('search', false);
    const rawSchema = options.value('schema');
    let schema: Record<string, unknown> | null = null;
    let validate: ValidateFunction | null = null;
    if (rawSchema !== undefined && rawSchema !== null) {
      try {
        validate = validatorFor(rawSchema);
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
    if (validate) validators.set(spec, validate);
    return spec;
  },
  grade(spec, answer) {
    const value = readJson(answer, spec.search);
    if (value === undefined) return { correct: false, reading: 'not JSON' };
    const validate = validatorOf(spec);
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
  },
  describe(spec) {
    const fieldCount = spec.fields ? Object.keys(spec.fields).length : 0;
    const parts = [
      spec.schema ? 'schema' : '',
      fieldCount > 0 ? `${fieldCount} field${fieldCount === 1 ? '' : 's'}` : '',
      spec.search ? 'searched' : '',
    ].filter(Boolean);
    return parts.length === 0 ? 'json' : `json (${parts.join(', ')})`;
  },
  explain(spec) {
    return [
      spec.search
        ? 'the first JSON object or array found in the answer'
        : 'the whole answer is JSON (or one fenced code block holding it)',
      spec.schema ? `valid against the schema ${JSON.stringify(spec.schema)}` : '',
      spec.fields
        ? `with the fields ${Object.entries(spec.fields)
            .map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`)
            .join(', ')}`
        : '',
    ].filter(Boolean);
  },
  simulate: {
    right(spec, _expected, rng) {
      const text = JSON.stringify(jsonAnswer(spec));
      return rng.next() < 0.3 ? `\`\`\`json\n${text}\n\`\`\`` : text;
    },
    wrong: (spec, rng) => jsonWrong(spec, rng),
    malformed(spec) {
      const text = JSON.stringify(jsonAnswer(spec));
      return `Sure! Here is the data: ${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}`;
    },
  },
};

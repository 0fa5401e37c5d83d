/**
 * The answer formats the checks ask for, turned into a llama.cpp grammar (GBNF) that only
 * admits bounded values, plus a validator for the parsed answer.
 *
 * Why not a generic JSON-schema grammar: it admits any JSON number, so a confidence field can
 * come back as 9E94949496. Here every number has a bounded number of digits and no exponent,
 * and a number whose schema lies within [0, 1] can only be written as 0, 1, 0.ddd or 1.000.
 *
 * The answer is written in one canonical layout, `{"key": value, "key": value}`, so everything
 * up to the first free choice is fixed text (`{"answer": "` for a letter answer). That fixed
 * prefix is fed to the model instead of being sampled: every answer reaches its first choice
 * through the same tokens, which is also the position the exact estimator reads.
 *
 * Supported subset (what the checks use): objects with `properties` (written in declaration
 * order, all of them), `enum` and `const` of strings/numbers/booleans, `string` (with
 * `maxLength`, default 200), `number` and `integer` (with `minimum`/`maximum`), `boolean`.
 */
import { finiteOrNull } from '../../render/json.js';
import type { JsonSchema } from '../types.js';

export class UnsupportedSchemaError extends Error {
  constructor(path: string, what: string) {
    super(`answer schema at ${path}: ${what}`);
    this.name = 'UnsupportedSchemaError';
  }
}

/** A piece of the answer: fixed text, or a grammar expression the model chooses within. */
type Part = { literal: string } | { rule: string };

export interface AnswerGrammar {
  /** Fixed text every valid answer starts with; fed to the model, not sampled. */
  prefix: string;
  /** GBNF for what follows the prefix (root rule `root`); null when the prefix is the answer. */
  grammar: string | null;
}

const DEFAULT_MAX_STRING = 200;
const MAX_DECIMALS = 6;
/** Integer digits allowed when a number has no bound on that side. */
const UNBOUNDED_DIGITS = 15;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A GBNF string literal for `text`. */
export function gbnfLiteral(text: string): string {
  let out = '"';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

function digitsOf(bound: number | null): number {
  if (bound === null) return UNBOUNDED_DIGITS;
  return Math.max(1, String(Math.floor(Math.abs(bound))).length);
}

/** Digits 1..n with no leading zero (a lone 0 is allowed). */
function integerDigits(maxDigits: number): string {
  return maxDigits <= 1 ? '[0-9]' : `("0" | [1-9] [0-9]{0,${maxDigits - 1}})`;
}

function numberRule(schema: Record<string, unknown>, integer: boolean): string {
  const min = finiteOrNull(schema['minimum']);
  const max = finiteOrNull(schema['maximum']);
  if (!integer && min !== null && max !== null && min >= 0 && max <= 1) {
    // The unit interval, which is where confidences live.
    return `("0" ("." [0-9]{1,${MAX_DECIMALS}})? | "1" ("." "0"{1,${MAX_DECIMALS}})?)`;
  }
  const sign = min === null || min < 0 ? '"-"? ' : '';
  const digits = Math.max(digitsOf(min), digitsOf(max));
  const fraction = integer ? '' : ` ("." [0-9]{1,${MAX_DECIMALS}})?`;
  return `(${sign}${integerDigits(digits)}${fraction})`;
}

function stringRule(schema: Record<string, unknown>): string {
  const maxLength = finiteOrNull(schema['maxLength']) ?? DEFAULT_MAX_STRING;
  const minLength = finiteOrNull(schema['minLength']) ?? 0;
  return `"\\"" [^"\\\\\\x00-\\x1f]{${minLength},${maxLength}} "\\""`;
}

function valueParts(schema: unknown, path: string): Part[] {
  if (!isRecord(schema)) throw new UnsupportedSchemaError(path, 'expected a schema object');
  if ('const' in schema) return [{ literal: JSON.stringify(schema['const']) }];
  const choices = schema['enum'];
  if (Array.isArray(choices)) {
    if (choices.length === 0) throw new UnsupportedSchemaError(path, 'empty enum');
    const texts = choices.map((choice) => JSON.stringify(choice));
    // Strings share their quotes: keep them as fixed text around the choice.
    if (choices.every((choice) => typeof choice === 'string')) {
      const inner = texts.map((t) => gbnfLiteral(t.slice(1, -1)));
      return [{ literal: '"' }, { rule: `(${inner.join(' | ')})` }, { literal: '"' }];
    }
    return [{ rule: `(${texts.map(gbnfLiteral).join(' | ')})` }];
  }
  switch (schema['type']) {
    case 'object':
      return objectParts(schema, path);
    case 'string':
      return [{ rule: stringRule(schema) }];
    case 'number':
      return [{ rule: numberRule(schema, false) }];
    case 'integer':
      return [{ rule: numberRule(schema, true) }];
    case 'boolean':
      return [{ rule: '("true" | "false")' }];
    default:
      throw new UnsupportedSchemaError(
        path,
        `type ${JSON.stringify(schema['type'])} is not supported (object, string, number, integer, boolean, enum, const)`,
      );
  }
}

function objectParts(schema: Record<string, unknown>, path: string): Part[] {
  const properties = schema['properties'];
  if (!isRecord(properties) || Object.keys(properties).length === 0) {
    throw new UnsupportedSchemaError(path, 'an object needs at least one property');
  }
  const parts: Part[] = [{ literal: '{' }];
  Object.entries(properties).forEach(([key, value], index) => {
    parts.push({ literal: `${index === 0 ? '' : ', '}${JSON.stringify(key)}: ` });
    parts.push(...valueParts(value, `${path}.${key}`));
  });
  parts.push({ literal: '}' });
  return parts;
}

/** Compiles an answer schema into its fixed prefix and the grammar of the rest. */
export function compileAnswerGrammar(schema: JsonSchema): AnswerGrammar {
  const parts = valueParts(schema, '$');
  let prefix = '';
  let index = 0;
  for (; index < parts.length; index++) {
    const part = parts[index] as Part;
    if (!('literal' in part)) break;
    prefix += part.literal;
  }
  const rest = parts.slice(index);
  if (rest.length === 0) return { prefix, grammar: null };
  // Adjacent fixed texts become one literal, which keeps the grammar readable.
  const merged: Part[] = [];
  for (const part of rest) {
    const last = merged[merged.length - 1];
    if ('literal' in part && last && 'literal' in last) last.literal += part.literal;
    else merged.push({ ...part });
  }
  const body = merged
    .map((part) => ('literal' in part ? gbnfLiteral(part.literal) : part.rule))
    .join(' ');
  return { prefix, grammar: `root ::= ${body}\n` };
}

/**
 * Problems of `value` against `schema` (same subset), one sentence each; empty when valid.
 * The grammar already bounds the shape; this checks what a grammar cannot say cheaply
 * (a minimum of 0.2, a maximum of 0.9) and guards against a grammar that let something slip.
 */
export function validateAnswer(value: unknown, schema: JsonSchema, path = '$'): string[] {
  if ('const' in schema) {
    return value === schema['const']
      ? []
      : [`${path}: expected ${JSON.stringify(schema['const'])}`];
  }
  const choices = schema['enum'];
  if (Array.isArray(choices)) {
    return choices.includes(value)
      ? []
      : [`${path}: expected one of ${choices.map((c) => JSON.stringify(c)).join(', ')}`];
  }
  switch (schema['type']) {
    case 'object': {
      if (!isRecord(value)) return [`${path}: expected an object`];
      const properties = isRecord(schema['properties']) ? schema['properties'] : {};
      const required = Array.isArray(schema['required']) ? schema['required'] : [];
      const problems: string[] = [];
      for (const key of required) {
        if (typeof key === 'string' && !(key in value)) problems.push(`${path}.${key}: missing`);
      }
      for (const [key, sub] of Object.entries(properties)) {
        if (key in value && isRecord(sub)) {
          problems.push(...validateAnswer(value[key], sub, `${path}.${key}`));
        }
      }
      return problems;
    }
    case 'string': {
      if (typeof value !== 'string') return [`${path}: expected a string`];
      const maxLength = finiteOrNull(schema['maxLength']);
      return maxLength !== null && value.length > maxLength
        ? [`${path}: longer than ${maxLength} characters`]
        : [];
    }
    case 'number':
    case 'integer': {
      if (typeof value !== 'number' || !Number.isFinite(value))
        return [`${path}: expected a number`];
      if (schema['type'] === 'integer' && !Number.isInteger(value)) {
        return [`${path}: expected an integer`];
      }
      const min = finiteOrNull(schema['minimum']);
      const max = finiteOrNull(schema['maximum']);
      if (min !== null && value < min) return [`${path}: ${value} is below the minimum ${min}`];
      if (max !== null && value > max) return [`${path}: ${value} is above the maximum ${max}`];
      return [];
    }
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: expected true or false`];
    default:
      return [];
  }
}

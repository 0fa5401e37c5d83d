/**
 * What a scripted model answers to an open item: the expected answer (in a form the item's
 * grader accepts: the label, a sentence holding the number, a JSON object with the expected
 * fields and the schema's shape…) with its latent probability; otherwise a plausible wrong
 * answer (the other label, a number off by more than the tolerance, a JSON object with one
 * field changed) or, with probability `malformed`, a malformed one (broken JSON, no number, no
 * label). Every answer is checked against the item's own grader (but a repository module's,
 * which the simulator never runs), so "correct" here is what the grader says.
 */
import type { OpenItem } from '../../checks/churn/openItems.js';
import type { GraderSpec, JsonSpec, LeafSpec } from '../../checks/churn/graders/types.js';
import { createRng, type Rng, seedFromText } from '../../stats/prng.js';

export interface OpenDraw {
  model: string;
  seed: number;
  temperature: number;
}

export interface OpenRates {
  /** Chance of an empty answer (recorded as invalid). */
  invalid: number;
  /** Chance that a wrong answer is malformed rather than plausible. */
  malformed: number;
}

/** One answer to an open item; pure: the same draw always gives the same text. */
export function drawOpenAnswer(
  latent: number,
  item: OpenItem,
  draw: OpenDraw,
  rates: OpenRates,
): string {
  const rng = createRng(
    seedFromText(
      `${draw.model}\u0000${draw.seed}\u0000${draw.temperature}\u0000${item.system ?? ''}\u0000${item.prompt}`,
    ),
  );
  if (rng.next() < rates.invalid) return '';
  const correct = draw.temperature === 0 ? latent >= 0.5 : rng.next() < latent;
  if (correct) return correctAnswer(item, rng);
  return rng.next() < rates.malformed ? malformedAnswer(item.grader.spec) : wrongAnswer(item, rng);
}

function checkable(spec: GraderSpec): boolean {
  return spec.type === 'all' ? spec.of.every(checkable) : spec.type !== 'module';
}

/** An answer the grader accepts, in a form a model might give. */
export function correctAnswer(item: OpenItem, rng: Rng): string {
  const spec = item.grader.spec;
  const answer =
    spec.type === 'all'
      ? typeof item.expected === 'string'
        ? item.expected
        : spec.of.map((leaf) => leafCorrect(leaf, item.expected, rng)).join('\n')
      : leafCorrect(spec, item.expected, rng);
  return answer;
}

function capitalised(text: string, rng: Rng): string {
  return rng.next() < 0.3 ? `${text.charAt(0).toUpperCase()}${text.slice(1)}` : text;
}

function leafCorrect(spec: LeafSpec, expected: unknown, rng: Rng): string {
  switch (spec.type) {
    case 'exact': {
      const cased = spec.keepCase ? spec.expected : capitalised(spec.expected, rng);
      return !spec.keepPunctuation && rng.next() < 0.3 ? `${cased}.` : cased;
    }
    case 'contains': {
      const parts = [...spec.all];
      if (spec.any.length > 0) parts.push(spec.any[rng.int(spec.any.length)] as string);
      return `Here is what I found: ${parts.join(', ')}.`;
    }
    case 'regex':
      return spec.example ?? 'No example answer was given for this pattern.';
    case 'number': {
      const shown =
        rng.next() < 0.5
          ? spec.expected.toLocaleString('en-US', { maximumFractionDigits: 20 })
          : String(spec.expected);
      return `The answer is ${shown}.`;
    }
    case 'json': {
      const text = JSON.stringify(jsonAnswer(spec));
      return rng.next() < 0.3 ? `\`\`\`json\n${text}\n\`\`\`` : text;
    }
    case 'label':
      return capitalised(spec.expected, rng);
    case 'module':
      return typeof expected === 'string' ? expected : JSON.stringify(expected ?? '');
  }
}

function jsonAnswer(spec: JsonSpec): unknown {
  const shape = spec.schema ? instanceOf(spec.schema, 0) : null;
  if (spec.fields) {
    return { ...(isMapping(shape) ? shape : {}), ...spec.fields };
  }
  return shape ?? { answer: 'ok' };
}

/** A plausible wrong answer, checked wrong by the grader; a malformed one when none is found. */
export function wrongAnswer(item: OpenItem, rng: Rng): string {
  const spec = item.grader.spec;
  const leaf = spec.type === 'all' ? (spec.of[0] as LeafSpec) : spec;
  const answer = leafWrong(leaf, rng);
  if (answer === null) return malformedAnswer(spec);
  if (checkable(spec) && item.grader.grade(answer).correct) return malformedAnswer(spec);
  return answer;
}

const OPPOSITES: Record<string, string> = { yes: 'no', no: 'yes', true: 'false', false: 'true' };

function leafWrong(spec: LeafSpec, rng: Rng): string | null {
  switch (spec.type) {
    case 'exact': {
      const opposite = OPPOSITES[spec.expected.trim().toLowerCase()];
      return opposite ?? `Not ${spec.expected}`;
    }
    case 'contains':
      return 'I could not find anything relevant.';
    case 'regex':
    case 'module':
      return 'I do not know.';
    case 'number': {
      const allowed = Math.max(spec.tolerance, spec.relative * Math.abs(spec.expected));
      const off = 2 * allowed + Math.max(1, Math.abs(spec.expected) * 0.1);
      const wrong = spec.expected + (rng.next() < 0.5 ? off : -off);
      return `The answer is ${Number(wrong.toFixed(2))}.`;
    }
    case 'json':
      return jsonWrong(spec, rng);
    case 'label': {
      const others = spec.labels.filter((label) => label !== spec.expected);
      return others.length === 0 ? null : (others[rng.int(others.length)] as string);
    }
  }
}

/** The expected object with one field changed, or the schema's shape with a required field gone. */
function jsonWrong(spec: JsonSpec, rng: Rng): string | null {
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

/** An answer in the wrong form: broken JSON, no number, no label. */
export function malformedAnswer(spec: GraderSpec): string {
  const leaf = spec.type === 'all' ? (spec.of[0] as LeafSpec) : spec;
  switch (leaf.type) {
    case 'json': {
      const text = JSON.stringify(jsonAnswer(leaf));
      return `Sure! Here is the data: ${text.slice(0, Math.max(1, Math.floor(text.length / 2)))}`;
    }
    case 'label':
      return 'It is hard to say without more context.';
    case 'number':
      return 'I cannot work that out from what is given.';
    default:
      return 'Sorry, I cannot help with that.';
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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

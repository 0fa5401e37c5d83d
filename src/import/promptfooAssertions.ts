/**
 * promptfoo assertions → model-gate graders. The deterministic text assertions convert
 * (equals, contains, icontains, contains-all, icontains-all, contains-any, icontains-any,
 * starts-with, regex, is-json, contains-json), and so does the `not-` form of each, as a `not`
 * grader; every other assertion is reported with why it was left out: model-graded ones need
 * a judge model, code ones run promptfoo's own code, and transformed ones change what is
 * tested.
 */
import { isMapping } from '../render/json.js';
import { renderTemplate } from './template.js';

export type Conversion =
  | { grader: Record<string, unknown>; note?: string }
  | { skipped: string; needsModel?: boolean; perCall?: boolean };

/** Assertions a judge model grades (promptfoo calls a model with a rubric or a reference). */
const JUDGED = new Set([
  'llm-rubric',
  'factuality',
  'answer-relevance',
  'context-faithfulness',
  'context-recall',
  'context-relevance',
  'conversation-relevance',
  'g-eval',
  'select-best',
  'search-rubric',
]);
/** Assertions another model decides: a classifier, a moderation model, log probabilities. */
const OTHER_MODEL = new Set(['classifier', 'moderation', 'pi', 'perplexity', 'perplexity-score']);
/** promptfoo assertions on a call's measurements rather than its answer. */
const PER_CALL = new Set(['latency', 'cost']);

/**
 * What gates relative speed here: a run compares the candidate with the baseline on the same
 * machine, so a fixed limit per call (milliseconds, dollars) tests the machine and the price
 * list, not the upgrade.
 */
const PER_CALL_WHY =
  'a per-call limit, not converted: a fixed limit per call measures the machine and the price list, not the upgrade; relative speed is for the planned speed check to gate';

/** Why an assertion type has no grader here. */
function unconvertible(type: string): { skipped: string; needsModel?: boolean; perCall?: boolean } {
  if (type === 'python' || type === 'ruby') {
    return {
      skipped: `${type}: ${type === 'python' ? 'Python' : 'Ruby'} code, which model-gate does not run (it runs only JavaScript modules of the repository)`,
    };
  }
  if (type === 'javascript') return { skipped: 'javascript: a code assertion' };
  if (type === 'webhook') return { skipped: 'webhook: asks a web service for the verdict' };
  if (PER_CALL.has(type)) return { skipped: `${type}: ${PER_CALL_WHY}`, perCall: true };
  if (JUDGED.has(type) || type.startsWith('model-graded')) {
    return { skipped: `${type}: needs a judge model (model-graded)`, needsModel: true };
  }
  if (type === 'similar' || type.startsWith('similar:')) {
    return {
      skipped: `${type}: needs embeddings (the answer's similarity to the value is measured on embedding vectors)`,
      needsModel: true,
    };
  }
  if (OTHER_MODEL.has(type)) {
    return {
      skipped: `${type}: needs a classifier or the model's log probabilities`,
      needsModel: true,
    };
  }
  return { skipped: `${type}: no deterministic grader for it` };
}

type Values = { texts: string[] } | { problem: string };

/** Where an assertion is read: the test's variables, and how its file gives lists. */
export interface AssertionSite {
  vars: Readonly<Record<string, unknown>>;
  /** A CSV tests file writes a list as one comma-separated text. */
  csv: boolean;
  /** Reads a schema file (`file://…`), relative to the promptfoo config. */
  readSchema: (reference: string) => unknown;
  /** Collects the variables an assertion names that the test does not give. */
  missing?: Set<string>;
}

/** The assertion's value as texts, variables rendered. */
function texts(value: unknown, site: AssertionSite, list = false): Values {
  const vars = site.vars;
  const values = Array.isArray(value)
    ? value
    : list && site.csv && typeof value === 'string'
      ? value.split(',').map((v) => v.trim())
      : [value];
  const out: string[] = [];
  for (const item of values) {
    if (typeof item === 'number' || typeof item === 'boolean') {
      out.push(String(item));
      continue;
    }
    if (typeof item !== 'string' || item === '') return { problem: 'a value that is not a text' };
    if (item.startsWith('file://')) return { problem: 'a value read from a file' };
    const rendered = renderTemplate(item, vars);
    if ('problem' in rendered) return rendered;
    for (const name of rendered.missing) site.missing?.add(name);
    out.push(rendered.text);
  }
  return out.length === 0 ? { problem: 'no value' } : { texts: out };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** One promptfoo assertion as a grader mapping (with its own `expected`), or why not. */
export function convertAssertion(assertion: unknown, site: AssertionSite): Conversion {
  if (!isMapping(assertion) || typeof assertion['type'] !== 'string') {
    return { skipped: 'an assertion without a type' };
  }
  const type = assertion['type'];
  if (type.startsWith('not-')) return negated(assertion, type, site);
  if (assertion['transform'] !== undefined) {
    return { skipped: `${type}: has a transform (the output is changed before the test)` };
  }
  const value = assertion['value'];
  const keepCase = !type.startsWith('i');
  switch (type) {
    case 'equals':
      return equals(value, site);
    case 'contains':
    case 'icontains':
    case 'contains-all':
    case 'icontains-all':
    case 'contains-any':
    case 'icontains-any': {
      const many = type.endsWith('-any') || type.endsWith('-all');
      const read = texts(value, site, many);
      if ('problem' in read) return { skipped: `${type}: ${read.problem}` };
      const any = type.endsWith('-any');
      return {
        grader: {
          type: 'contains',
          ...(any ? { any: read.texts } : { expected: read.texts }),
          ...(keepCase ? { 'keep-case': true } : {}),
        },
      };
    }
    case 'starts-with':
    case 'regex': {
      const read = texts(value, site);
      if ('problem' in read || read.texts.length !== 1) {
        return { skipped: `${type}: ${'problem' in read ? read.problem : 'one value expected'}` };
      }
      const text = read.texts[0] as string;
      return {
        grader: { type: 'regex', pattern: type === 'regex' ? text : `^${escapeRegex(text)}` },
      };
    }
    case 'is-json':
    case 'contains-json':
      return json(type, value, site.readSchema);
    default:
      return unconvertible(type);
  }
}

/** `not-<type>`: the assertion of that type, its verdict turned round; left out when it is. */
function negated(
  assertion: Readonly<Record<string, unknown>>,
  type: string,
  site: AssertionSite,
): Conversion {
  const base = type.slice('not-'.length);
  const inner = convertAssertion({ ...assertion, type: base }, site);
  if ('skipped' in inner) {
    const why = inner.skipped.startsWith(`${base}: `)
      ? inner.skipped.slice(base.length + 2)
      : inner.skipped;
    return { skipped: `${type}: ${why}`, ...(inner.needsModel ? { needsModel: true } : {}) };
  }
  return {
    grader: { type: 'not', of: inner.grader },
    ...(inner.note ? { note: `${type}: ${inner.note.replace(`${base}: `, '')}` } : {}),
  };
}

function equals(value: unknown, site: AssertionSite): Conversion {
  if (isMapping(value)) {
    return {
      grader: { type: 'json', expected: value },
      note: 'equals with an object: converted to json with these fields (other fields accepted)',
    };
  }
  const read = texts(value, site);
  if ('problem' in read || read.texts.length !== 1) {
    return { skipped: `equals: ${'problem' in read ? read.problem : 'one value expected'}` };
  }
  return {
    grader: {
      type: 'exact',
      expected: read.texts[0],
      'keep-case': true,
      'keep-punctuation': true,
    },
    note: 'equals: compared after trimming spaces and line breaks at both ends',
  };
}

function json(
  type: string,
  value: unknown,
  readSchema: (reference: string) => unknown,
): Conversion {
  let schema: unknown = value;
  if (typeof value === 'string' && value.startsWith('file://')) {
    try {
      schema = readSchema(value.slice('file://'.length));
    } catch (error) {
      return { skipped: `${type}: schema ${value} unreadable (${(error as Error).message})` };
    }
  }
  if (schema !== undefined && schema !== null && !isMapping(schema)) {
    return { skipped: `${type}: the schema is not a JSON Schema object` };
  }
  return {
    grader: {
      type: 'json',
      ...(isMapping(schema) ? { schema } : {}),
      ...(type === 'contains-json' ? { search: true } : {}),
    },
    ...(type === 'is-json'
      ? { note: 'is-json: an answer that is one fenced code block holding JSON is also accepted' }
      : {}),
  };
}

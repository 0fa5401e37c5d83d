/**
 * What a zod issue says to the person who wrote the input: the value expected and the value
 * found, in words ("expected a mapping, got 3"), for every file read as data (the config, the
 * items, the persona catalogue, the simulator's scenario blocks). Where the issue stands is the
 * reader's business: each one knows how to find the line of a path in its own file.
 */
import type { z } from 'zod';
import { didYouMean } from '../text/nearest.js';

/** A path inside a value, as written: `choices[2]`, `grader.of[1].flags`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  return path
    .map((segment, i) =>
      typeof segment === 'number' ? `[${segment}]` : `${i === 0 ? '' : '.'}${String(segment)}`,
    )
    .join('');
}

/**
 * A schema's message for a value it refuses: what it expected and what it found. Given as the
 * `error` of a schema or a refinement, so that the message reads the same whichever check failed.
 */
export function expecting(what: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => `expected ${what}, got ${describeValue(issue.input)}` };
}

/**
 * The error map of a parse: what zod would say in its own words, said as the rest of the
 * messages are ("expected number, got \"ten\""). Schemas that give their own message keep it.
 */
export const inWords = (issue: z.core.$ZodRawIssue): string =>
  explainIssue(issue as unknown as z.core.$ZodIssue);

/**
 * `schema.safeParse` with its issues in words (`inWords`) and the values found in them. zod
 * runs an object schema through its compiled fast path only when the parse takes no options,
 * so the value is parsed plainly first, and once more with the options when it fails: a large
 * file of valid items costs what zod costs, and only a wrong one pays for the words.
 */
export function parseInWords<T extends z.ZodType>(
  schema: T,
  value: unknown,
): z.ZodSafeParseResult<z.output<T>> {
  const fast = schema.safeParse(value);
  return fast.success ? fast : schema.safeParse(value, { reportInput: true, error: inWords });
}

/**
 * One line for an issue of a file read as data (parsed by `parseInWords`): a refinement's own
 * message as it is when it names its field itself ("empty question", "max-tokens 0: …"), any
 * other as its path and its message ("choices[1]: expected a text, got a mapping"). Unknown
 * keys are each reader's to word, since each knows the keys it accepts.
 */
export function issueLine(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' && !issue.message.startsWith('expected ')) return issue.message;
  const at = fieldPath(issue.path);
  return `${at === '' ? '' : `${at}: `}${issue.message}`;
}

export function explainIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `missing: expected ${typeName(issue.expected)}`;
      return `expected ${typeName(issue.expected)}, got ${describeValue(issue.input)}`;
    case 'too_small':
      return `expected ${issue.origin === 'array' ? 'at least' : issue.inclusive ? '≥' : '>'} ${String(issue.minimum)}${issue.origin === 'array' ? ' entries' : ''}, got ${describeValue(issue.input)}`;
    case 'too_big':
      if (issue.origin === 'string' && typeof issue.input === 'string')
        return `expected at most ${String(issue.maximum)} characters, got ${issue.input.length}`;
      return `expected ${issue.inclusive ? '≤' : '<'} ${String(issue.maximum)}, got ${describeValue(issue.input)}`;
    case 'invalid_value':
      return `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(issue.input)}${didYouMean(issue.input, issue.values)}`;
    case 'invalid_union':
      // Read as an error map, the issue has no message yet.
      return `${issue.message ?? 'expected another form'}, got ${describeValue(issue.input)}`;
    default:
      return issue.message;
  }
}

function typeName(expected: string): string {
  if (expected === 'object') return 'a mapping';
  if (expected === 'array') return 'a list';
  return expected;
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string')
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  return String(value);
}

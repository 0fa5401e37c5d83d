/**
 * A behaviour's scenario block read through its zod schema. The first problem found is
 * thrown with the path of its field inside the block, so that the scenario reader can name
 * the line of that field (not only of the block) and the behaviour's own callers still read
 * `churn.accuracy: expected …, got 1.2`.
 */
import type { z } from 'zod';
import { fieldPath, parseInWords } from '../config/issues.js';

export class BehaviourParamsError extends Error {
  constructor(
    /** Path of the field inside the behaviour's block; empty for the block itself. */
    readonly path: readonly (string | number)[],
    /** What was expected there, and what was found. */
    readonly problem: string,
    behaviour: string,
  ) {
    super(`${behaviour}${path.length === 0 ? '' : '.'}${fieldPath(path)}: ${problem}`);
  }
}

/**
 * Blocks already read, by schema: a behaviour reads its block on every request the simulator
 * answers, and a scenario's blocks do not change once it is loaded.
 */
const parsedBlocks = new WeakMap<z.ZodType, WeakMap<object, unknown>>();

/**
 * The block parsed by `schema` (an absent block is `{}`); throws BehaviourParamsError. A
 * schema's messages say what it expected and what it found (`expecting` of config/issues.ts);
 * zod's own are put in the same words.
 */
export function parseBehaviourParams<T extends z.ZodType>(
  schema: T,
  behaviour: string,
  raw: unknown,
): z.output<T> {
  const block = typeof raw === 'object' && raw !== null ? raw : null;
  const known = block ? parsedBlocks.get(schema)?.get(block) : undefined;
  if (known !== undefined) return known as z.output<T>;
  const parsed = parseInWords(schema, raw ?? {});
  if (parsed.success) {
    if (block) {
      const bySchema = parsedBlocks.get(schema) ?? new WeakMap<object, unknown>();
      bySchema.set(block, parsed.data);
      parsedBlocks.set(schema, bySchema);
    }
    return parsed.data;
  }
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  if (issue.code === 'unrecognized_keys') {
    const known = issue.path.length === 0 ? topLevelKeys(schema) : [];
    throw new BehaviourParamsError(
      [...plainPath(issue.path), issue.keys[0] ?? ''],
      `unknown field${known.length > 0 ? ` (known: ${known.join(', ')})` : ''}`,
      behaviour,
    );
  }
  throw new BehaviourParamsError(plainPath(issue.path), issue.message, behaviour);
}

/** The keys an object schema accepts, through a transform after it (none for another kind). */
function topLevelKeys(schema: unknown): string[] {
  const { shape, in: before } = schema as { shape?: unknown; in?: unknown };
  if (shape !== null && typeof shape === 'object') return Object.keys(shape);
  return before ? topLevelKeys(before) : [];
}

function plainPath(path: readonly PropertyKey[]): (string | number)[] {
  return path.map((segment) => (typeof segment === 'number' ? segment : String(segment)));
}

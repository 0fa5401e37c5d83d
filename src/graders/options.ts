/**
 * A grader's options read from the item through a zod schema per grader type: every key known
 * to its type, typed, each problem said in words. An option the type does not know is an
 * error, not a warning: a misspelt `keep-case` silently ignored would grade every answer
 * differently from what was meant. What the types cannot say (a pattern that does not
 * compile, an expected label missing from the labels) the grader's build function checks.
 */
import { z } from 'zod';
import { describeValue, expecting, issueLine, parseInWords } from '../config/issues.js';
import { didYouMean } from '../text/nearest.js';

export type OptionShape = Record<string, z.ZodType>;

type OptionValues<S extends OptionShape> = { [K in keyof S]?: z.output<S[K]> };

/** true or false; absent (or null) means the grader's default. */
export const flag = z.boolean().nullish();

/** A non-negative finite number; absent (or null) means the grader's default. */
export function amount(key: string) {
  return z
    .number()
    .nullish()
    .refine((v) => v === null || v === undefined || (Number.isFinite(v) && v >= 0), {
      error: (issue) => `${key} must be a number at or above 0, got ${describeValue(issue.input)}`,
    });
}

const scalarText = z.union([z.string(), z.number(), z.boolean()]);

/** A text or a list of non-empty texts (numbers and booleans read as their text). */
export function texts(key: string) {
  return z
    .union([scalarText, z.array(scalarText)], expecting('a text or a list of non-empty texts'))
    .nullish()
    .refine(
      (v) => v === null || v === undefined || [v].flat().every((t) => String(t).trim() !== ''),
      { error: `${key}: expected a text or a list of non-empty texts, got an empty text` },
    );
}

/** One schema per grader type, built once: every open item of a file reads its options. */
const schemas = new WeakMap<OptionShape, z.ZodType>();

function schemaOf(shape: OptionShape): z.ZodType {
  let schema = schemas.get(shape);
  if (!schema) {
    // Every type may give its own `expected`, which the host reads (it wins over the item's).
    schema = z.strictObject({
      type: z.unknown().optional(),
      ...shape,
      expected: z.unknown().optional(),
    });
    schemas.set(shape, schema);
  }
  return schema;
}

export class GraderOptions<S extends OptionShape = OptionShape> {
  private readonly problemsBefore: number;
  /** The options that passed their schema; a refused one is absent. */
  private readonly values: OptionValues<S>;

  constructor(
    readonly type: string,
    raw: Readonly<Record<string, unknown>>,
    shape: S,
    readonly problems: string[],
  ) {
    this.problemsBefore = problems.length;
    const parsed = parseInWords(schemaOf(shape), raw);
    if (parsed.success) {
      this.values = parsed.data as OptionValues<S>;
      return;
    }
    const refused = new Set<PropertyKey>();
    const known = [...Object.keys(shape), 'expected'];
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys)
          this.problem(
            `unknown option "${key}"${didYouMean(key, known)} (expected one of ${known.join(', ')})`,
          );
        continue;
      }
      refused.add(issue.path[0] ?? '');
      this.problem(issueLine(issue));
    }
    // The schemas transform nothing: an option that passed is its value as written.
    this.values = Object.fromEntries(
      known.filter((key) => !refused.has(key)).map((key) => [key, raw[key]]),
    ) as OptionValues<S>;
  }

  /** Whether no problem was found since these options were read. */
  get ok(): boolean {
    return this.problems.length === this.problemsBefore;
  }

  value<K extends keyof S & string>(key: K): z.output<S[K]> | undefined {
    return this.values[key];
  }

  problem(message: string): void {
    this.problems.push(`grader ${this.type}: ${message}`);
  }

  boolean(key: keyof S & string, fallback: boolean): boolean {
    const value = this.values[key];
    return typeof value === 'boolean' ? value : fallback;
  }

  amount(key: keyof S & string, fallback: number): number {
    const value = this.values[key];
    return typeof value === 'number' ? value : fallback;
  }

  /** The texts of a `texts` option, or null when absent. */
  texts(key: keyof S & string): string[] | null {
    const value = this.values[key];
    if (value === undefined || value === null) return null;
    return [value].flat().map(String);
  }
}

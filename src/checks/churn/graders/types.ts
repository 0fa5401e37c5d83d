/**
 * What a grader is: a deterministic decision "correct or not" on one open answer, built from
 * the item's `grader` and `expected` before any request. The spec is the grader as data (what
 * the fingerprint hashes and the simulator reads); `grade` applies it to an answer text.
 */

/** Version of the graders' semantics: bumped whenever any grader decides differently. */
export const GRADERS_VERSION = 'graders/1';

export const GRADER_TYPES = [
  'exact',
  'contains',
  'regex',
  'number',
  'json',
  'label',
  'module',
  'all',
] as const;
export type GraderType = (typeof GRADER_TYPES)[number];

export interface ExactSpec {
  type: 'exact';
  expected: string;
  keepCase: boolean;
  keepPunctuation: boolean;
}

export interface ContainsSpec {
  type: 'contains';
  /** Every one must appear. */
  all: string[];
  /** At least one must appear (when not empty). */
  any: string[];
  keepCase: boolean;
}

export interface RegexSpec {
  type: 'regex';
  pattern: string;
  flags: string;
  /** An answer the pattern accepts, checked when the item is loaded (the simulator says it). */
  example: string | null;
}

export interface NumberSpec {
  type: 'number';
  expected: number;
  /** Largest absolute difference accepted. */
  tolerance: number;
  /** Largest difference accepted as a share of |expected|. */
  relative: number;
}

export interface JsonSpec {
  type: 'json';
  /** JSON Schema the answer must validate against, or null. */
  schema: Record<string, unknown> | null;
  /** Fields the answer must hold with these values, or null. */
  fields: Record<string, unknown> | null;
  /** Take the first JSON value found anywhere in the answer, not only the whole answer. */
  search: boolean;
}

export interface LabelSpec {
  type: 'label';
  labels: string[];
  expected: string;
}

export interface ModuleSpec {
  type: 'module';
  /** The path as written, relative to the items file. */
  module: string;
  /** SHA-256 of the module file: a changed grader is a changed fingerprint. */
  sha256: string;
  expected: unknown;
}

export interface AllSpec {
  type: 'all';
  of: LeafSpec[];
}

export type LeafSpec =
  | ExactSpec
  | ContainsSpec
  | RegexSpec
  | NumberSpec
  | JsonSpec
  | LabelSpec
  | ModuleSpec;
export type GraderSpec = LeafSpec | AllSpec;

/** One answer graded. */
export interface Grade {
  correct: boolean;
  /** What the grader read in the answer, in a few words (the number, the label, why not JSON). */
  reading: string;
  /** Label grader: the answer is none of the labels (a wrong answer, counted apart). */
  offLabel?: boolean;
}

export interface Grader {
  readonly spec: GraderSpec;
  /** GRADERS_VERSION and a hash of the spec: what the report and each record name. */
  readonly fingerprint: string;
  /** A short description for the report: `json (schema, 2 fields)`. */
  readonly description: string;
  grade(answer: string): Grade;
  /** Loads what grading needs beyond the spec (a repository module); at once when nothing. */
  prepare(): Promise<void>;
}

/** What a grader built for an item knows of it (a module grader receives it). */
export interface GradedItem {
  id: string;
  domain: string;
  prompt: string;
  system: string | null;
  expected: unknown;
}

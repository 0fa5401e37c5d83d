/**
 * What a grader is: a deterministic decision "correct or not" on one open answer, built from
 * the item's `grader` and `expected` before any request. Each grader type is one object of
 * type `GraderKind` in a file of its own, listed in index.ts; the host (host.ts) reads an
 * item's grader through that list alone, so a new type is one file and one line there.
 *
 * The spec is the grader as data: plain JSON (what the fingerprint hashes, what the report
 * and the simulator read), built once from the options; `grade` applies it to an answer.
 */
import type { Rng } from '../stats/prng.js';
import type { GraderOptions, OptionShape } from './options.js';

/** Version of the graders' semantics: bumped whenever any grader decides differently. */
export const GRADERS_VERSION = 'graders/1';

/** A grader as data: its type and the values its options were read into. */
export interface GraderSpec {
  readonly type: string;
}

/** One answer graded. */
export interface Grade {
  correct: boolean;
  /** What the grader read in the answer, in a few words (the number, the label, why not JSON). */
  reading: string;
  /** Label grader: the answer is none of the labels (a wrong answer, counted apart). */
  offLabel?: boolean;
}

/** What a grader built for an item knows of it (a module grader receives it). */
export interface GradedItem {
  id: string;
  domain: string;
  prompt: string;
  system: string | null;
  expected: unknown;
}

/** Where a grader is read: the items file's folder and the item, for paths and messages. */
export interface GraderSite {
  /** Folder of the items file: module paths are relative to it. */
  baseDir: string;
  /** `items.yml:12 (item "x")`, for messages about the grader's behaviour. */
  where: string;
  item: GradedItem;
}

/** What `build` may ask of the host: the site, and the graders inside a composite one. */
export interface BuildContext {
  site: GraderSite;
  /** Types of the composite graders this one is inside, outermost first. */
  within: readonly string[];
  /** Builds a grader inside this one (a name or a mapping); null when it has problems. */
  child(raw: unknown, expected: unknown): GraderSpec | null;
}

/** What `grade` may ask of the host: the site, and the grading of a grader inside this one. */
export interface GradeContext {
  site: GraderSite;
  child(spec: GraderSpec, answer: string): Grade;
}

/** The host's other services to a kind: the same, on a grader inside this one. */
export interface SpecContext {
  describe(spec: GraderSpec): string;
  explain(spec: GraderSpec): string[];
}

/**
 * Answers a scripted model gives (the simulator): one the grader accepts, a plausible wrong one,
 * a malformed one. Optional: without it, the simulator answers `expected` as text when right
 * and a fixed sentence otherwise.
 */
export interface SimulatedAnswers<S extends GraderSpec> {
  right(spec: S, expected: unknown, rng: Rng, context: SimulateContext): string;
  /** Null when there is no plausible wrong answer (the simulator gives a malformed one). */
  wrong(spec: S, rng: Rng, context: SimulateContext): string | null;
  malformed?(spec: S, context: SimulateContext): string;
}

export interface SimulateContext {
  right(spec: GraderSpec, expected: unknown, rng: Rng): string;
  wrong(spec: GraderSpec, rng: Rng): string | null;
  malformed(spec: GraderSpec): string;
}

/**
 * One grader type: its options, how it is built and applied, and how it is named. The type
 * parameters are the spec it builds and the shape of its options.
 */
export interface GraderKind<
  S extends GraderSpec = GraderSpec,
  O extends OptionShape = OptionShape,
> {
  readonly type: S['type'];
  /** The options a mapping of this type may hold besides `type` (zod, one entry per key). */
  readonly options: O;
  /** The spec, or null with the problems said through `options.problem`. */
  build(options: GraderOptions<O>, expected: unknown, context: BuildContext): S | null;
  grade(spec: S, answer: string, context: GradeContext): Grade;
  /** A short name for the report: `json (schema, 2 fields)`. */
  describe(spec: S, context: SpecContext): string;
  /** What an answer must be, one line per option, for report.html. */
  explain(spec: S, context: SpecContext): string[];
  /** The graders inside a composite one (`all`); absent: none. */
  children?(spec: S): readonly GraderSpec[];
  /** Loads what grading needs beyond the spec (a repository module), before any request. */
  prepare?(spec: S, site: GraderSite): Promise<void>;
  /**
   * What the report's fingerprint hashes; absent: the spec itself. A kind whose decision
   * depends on something outside the spec puts it in the spec instead (the module's hash).
   */
  fingerprint?(spec: S): string;
  /** Its wrong answers that are none of the allowed ones are counted apart (off-label). */
  readonly countsOffLabel?: boolean;
  /** It runs the repository's code: the simulator never calls it. */
  readonly runsCode?: boolean;
  readonly simulate?: SimulatedAnswers<S>;
}

/** A grader built for one item. */
export interface Grader {
  readonly spec: GraderSpec;
  /** GRADERS_VERSION and a hash of the spec: what the report and each record name. */
  readonly fingerprint: string;
  /** A short description for the report: `json (schema, 2 fields)`. */
  readonly description: string;
  /** Whether an off-label answer is counted apart (a label grader, alone or inside another). */
  readonly countsOffLabel: boolean;
  grade(answer: string): Grade;
  /** Loads what grading needs beyond the spec (a repository module); at once when nothing. */
  prepare(): Promise<void>;
}

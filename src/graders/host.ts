/**
 * The host of a list of grader kinds: reads an item's `grader` (a type name with its defaults,
 * or a mapping with `type` and the type's options; none means `exact` on `expected`; a mapping
 * may give its own `expected`, which wins over the item's), builds, grades, names, explains and
 * simulates through the kinds alone. Nothing here knows a type but the default one: a new
 * grader is a kind in the list (index.ts), never a case here.
 */
import { createHash } from 'node:crypto';
import { isMapping } from '../render/json.js';
import { didYouMean } from '../text/nearest.js';
import { GraderOptions } from './options.js';
import { canonicalJson } from './text.js';
import {
  type BuildContext,
  GRADERS_VERSION,
  type GradeContext,
  type Grader,
  type GraderKind,
  type GraderSite,
  type GraderSpec,
  type SimulateContext,
  type SpecContext,
} from './types.js';

/** The type an item without `grader` is graded by (on its `expected`). */
const DEFAULT_TYPE = 'exact';

/** A scripted model's answers when a kind says nothing of them. */
const FALLBACK_WRONG = 'I do not know.';
const FALLBACK_MALFORMED = 'Sorry, I cannot help with that.';

export interface GraderHost {
  /** The grader types, in the order of the list. */
  readonly types: readonly string[];
  /** The grader an item describes, or null with the reasons pushed on `problems`. */
  build(raw: unknown, expected: unknown, site: GraderSite, problems: string[]): Grader | null;
  /** What an answer must be, one line per option (report.html). */
  explain(spec: GraderSpec): string[];
  /** Whether the grader (or one inside it) runs repository code. */
  runsCode(spec: GraderSpec): boolean;
  /** A scripted model's answers: one the grader accepts, a wrong one (null: none), a malformed one. */
  simulate: SimulateContext;
}

export function graderHost(list: readonly GraderKind[]): GraderHost {
  const kinds = new Map(list.map((kind) => [kind.type, kind] as const));
  const types = [...kinds.keys()];
  const kindOf = (spec: GraderSpec): GraderKind => {
    const kind = kinds.get(spec.type);
    if (!kind) throw new Error(`no grader kind "${spec.type}"`);
    return kind;
  };
  const nodes = (spec: GraderSpec): GraderSpec[] => [
    spec,
    ...(kindOf(spec).children?.(spec) ?? []).flatMap(nodes),
  ];
  const specContext: SpecContext = {
    describe: (spec) => kindOf(spec).describe(spec, specContext),
    explain: (spec) => kindOf(spec).explain(spec, specContext),
  };

  const buildSpec = (
    raw: unknown,
    expected: unknown,
    site: GraderSite,
    problems: string[],
    within: readonly string[],
  ): GraderSpec | null => {
    const named = typeAndOptions(raw, expected, types, problems);
    if (named === null) return null;
    const kind = kinds.get(named.type) as GraderKind;
    const own = named.options['expected'] !== undefined ? named.options['expected'] : expected;
    const options = new GraderOptions(named.type, named.options, kind.options, problems);
    const context: BuildContext = {
      site,
      within,
      child: (sub, subExpected) =>
        buildSpec(sub, subExpected, site, problems, [...within, kind.type]),
    };
    return kind.build(options, own, context);
  };

  const simulate: SimulateContext = {
    right: (spec, expected, rng) =>
      kindOf(spec).simulate?.right(spec, expected, rng, simulate) ?? expectedText(expected),
    wrong: (spec, rng) => {
      const kind = kindOf(spec);
      return kind.simulate ? kind.simulate.wrong(spec, rng, simulate) : FALLBACK_WRONG;
    },
    malformed: (spec) => kindOf(spec).simulate?.malformed?.(spec, simulate) ?? FALLBACK_MALFORMED,
  };

  return {
    types,
    build(raw, expected, site, problems) {
      const spec = buildSpec(raw, expected, site, problems, []);
      if (spec === null) return null;
      const all = nodes(spec);
      const kind = kindOf(spec);
      const hashed = kind.fingerprint ? kind.fingerprint(spec) : canonicalJson(spec);
      const hash = createHash('sha256').update(hashed).digest('hex');
      const gradeContext: GradeContext = {
        site,
        child: (sub, answer) => kindOf(sub).grade(sub, answer, gradeContext),
      };
      return {
        spec,
        fingerprint: `${GRADERS_VERSION}:${hash.slice(0, 12)}`,
        description: kind.describe(spec, specContext),
        countsOffLabel: all.some((node) => kindOf(node).countsOffLabel === true),
        grade: (answer) => kind.grade(spec, answer, gradeContext),
        prepare: async () => {
          for (const node of all) await kindOf(node).prepare?.(node, site);
        },
      };
    },
    explain: (spec) => specContext.explain(spec),
    runsCode: (spec) => nodes(spec).some((node) => kindOf(node).runsCode === true),
    simulate,
  };
}

function expectedText(expected: unknown): string {
  return typeof expected === 'string' ? expected : JSON.stringify(expected ?? '');
}

function typeAndOptions(
  raw: unknown,
  expected: unknown,
  types: readonly string[],
  problems: string[],
): { type: string; options: Record<string, unknown> } | null {
  let type: unknown;
  let options: Record<string, unknown> = {};
  if (raw === undefined || raw === null) {
    if (expected === undefined || expected === null) {
      problems.push(`no grader: give \`expected\` (graded ${DEFAULT_TYPE}) or a \`grader\``);
      return null;
    }
    type = DEFAULT_TYPE;
  } else if (typeof raw === 'string') {
    type = raw.trim();
  } else if (isMapping(raw)) {
    type = raw['type'];
    options = raw;
  } else {
    problems.push('grader must be a grader name or a mapping with `type` and its options');
    return null;
  }
  if (typeof type !== 'string' || !types.includes(type)) {
    problems.push(
      `unknown grader ${JSON.stringify(type ?? null)}${didYouMean(type, types)} (expected one of ${types.join(', ')})`,
    );
    return null;
  }
  return { type, options };
}

/**
 * A grader from what an item says: `grader` as a type name with its defaults, or a mapping
 * with `type` and the type's options; no `grader` means `exact` on `expected`. A mapping may
 * give its own `expected`, which wins over the item's. `all` combines graders: every one must
 * accept the answer. Problems are collected in words (the caller adds file, line and item).
 */
import { isMapping } from '../../../render/json.js';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { buildContains, CONTAINS_OPTIONS, describeContains, gradeContains } from './contains.js';
import { buildExact, describeExact, EXACT_OPTIONS, gradeExact } from './exact.js';
import { buildJson, describeJson, gradeJson, JSON_OPTIONS } from './json.js';
import { buildLabel, describeLabel, gradeLabel, LABEL_OPTIONS } from './label.js';
import {
  buildModule,
  describeModule,
  gradeWithModule,
  loadModuleGrade,
  MODULE_OPTIONS,
  type ModuleSite,
} from './module.js';
import { buildNumber, describeNumber, gradeNumber, NUMBER_OPTIONS } from './number.js';
import { GraderOptions, type OptionShape } from './options.js';
import { buildRegex, describeRegex, gradeRegex, REGEX_OPTIONS } from './regex.js';
import { canonicalJson } from './text.js';
import {
  type AllSpec,
  GRADER_TYPES,
  type GradedItem,
  type Grade,
  type Grader,
  type GraderSpec,
  type GraderType,
  GRADERS_VERSION,
  type LeafSpec,
  type ModuleSpec,
} from './types.js';

export interface GraderSite extends ModuleSite {
  item: GradedItem;
}

const ALL_OPTIONS = { of: z.array(z.unknown()).nullish(), expected: z.unknown().optional() };

/** The grader an item describes, or null with the reasons pushed on `problems`. */
export function buildGrader(
  raw: unknown,
  expected: unknown,
  site: GraderSite,
  problems: string[],
): Grader | null {
  const spec = buildSpec(raw, expected, site, problems, true);
  return spec === null ? null : new BuiltGrader(spec, site);
}

function buildSpec(
  raw: unknown,
  expected: unknown,
  site: ModuleSite,
  problems: string[],
  allowAll: boolean,
): GraderSpec | null {
  const named = typeAndOptions(raw, expected, problems);
  if (named === null) return null;
  const { type, options } = named;
  const own = options['expected'] !== undefined ? options['expected'] : expected;
  const read = <S extends OptionShape>(shape: S) =>
    new GraderOptions(type, options, shape, problems);
  switch (type) {
    case 'exact':
      return buildExact(read(EXACT_OPTIONS), own);
    case 'contains':
      return buildContains(read(CONTAINS_OPTIONS), own);
    case 'regex':
      return buildRegex(read(REGEX_OPTIONS), own);
    case 'number':
      return buildNumber(read(NUMBER_OPTIONS), own);
    case 'json':
      return buildJson(read(JSON_OPTIONS), own);
    case 'label':
      return buildLabel(read(LABEL_OPTIONS), own);
    case 'module':
      return buildModule(read(MODULE_OPTIONS), own, site);
    case 'all':
      if (!allowAll) {
        problems.push('grader all: an `all` inside another `all` (list its graders in one)');
        return null;
      }
      return buildAll(read(ALL_OPTIONS), own, site, problems);
  }
}

function typeAndOptions(
  raw: unknown,
  expected: unknown,
  problems: string[],
): { type: GraderType; options: Record<string, unknown> } | null {
  let type: unknown;
  let options: Record<string, unknown> = {};
  if (raw === undefined || raw === null) {
    if (expected === undefined || expected === null) {
      problems.push('no grader: give `expected` (graded exact) or a `grader`');
      return null;
    }
    type = 'exact';
  } else if (typeof raw === 'string') {
    type = raw.trim();
  } else if (isMapping(raw)) {
    type = raw['type'];
    options = raw;
  } else {
    problems.push('grader must be a grader name or a mapping with `type` and its options');
    return null;
  }
  if (typeof type !== 'string' || !(GRADER_TYPES as readonly string[]).includes(type)) {
    problems.push(
      `unknown grader ${JSON.stringify(type ?? null)} (expected one of ${GRADER_TYPES.join(', ')})`,
    );
    return null;
  }
  return { type: type as GraderType, options };
}

function buildAll(
  options: GraderOptions<typeof ALL_OPTIONS>,
  expected: unknown,
  site: ModuleSite,
  problems: string[],
): AllSpec | null {
  const of = options.value('of');
  if (!options.ok) return null;
  if (!of || of.length === 0) {
    options.problem('needs `of`, a list of graders that must all accept the answer');
    return null;
  }
  const specs = of.map((sub) => buildSpec(sub, expected, site, problems, false));
  if (!options.ok || specs.some((s) => s === null)) return null;
  return { type: 'all', of: specs as LeafSpec[] };
}

type GradeFunction = Parameters<typeof gradeWithModule>[0];

class BuiltGrader implements Grader {
  readonly fingerprint: string;
  readonly description: string;
  private readonly modules = new Map<ModuleSpec, GradeFunction>();

  constructor(
    readonly spec: GraderSpec,
    private readonly site: GraderSite,
  ) {
    const hash = createHash('sha256').update(canonicalJson(spec)).digest('hex');
    this.fingerprint = `${GRADERS_VERSION}:${hash.slice(0, 12)}`;
    this.description = describeSpec(spec);
  }

  grade(answer: string): Grade {
    if (this.spec.type !== 'all') return this.gradeLeaf(this.spec, answer);
    let offLabel = false;
    for (const sub of this.spec.of) {
      const grade = this.gradeLeaf(sub, answer);
      offLabel ||= grade.offLabel === true;
      if (!grade.correct) return { ...grade, offLabel };
    }
    return { correct: true, reading: `all ${this.spec.of.length} passed` };
  }

  async prepare(): Promise<void> {
    const leaves = this.spec.type === 'all' ? this.spec.of : [this.spec];
    for (const leaf of leaves) {
      if (leaf.type === 'module') this.modules.set(leaf, await loadModuleGrade(leaf, this.site));
    }
  }

  private gradeLeaf(spec: LeafSpec, answer: string): Grade {
    switch (spec.type) {
      case 'exact':
        return gradeExact(spec, answer);
      case 'contains':
        return gradeContains(spec, answer);
      case 'regex':
        return gradeRegex(spec, answer);
      case 'number':
        return gradeNumber(spec, answer);
      case 'json':
        return gradeJson(spec, answer);
      case 'label':
        return gradeLabel(spec, answer);
      case 'module': {
        const fn = this.modules.get(spec);
        if (!fn) throw new Error(`grader module ${spec.module} used before it was loaded`);
        return gradeWithModule(fn, spec, this.site.item, answer, this.site.where);
      }
    }
  }
}

export function describeSpec(spec: GraderSpec): string {
  switch (spec.type) {
    case 'exact':
      return describeExact(spec);
    case 'contains':
      return describeContains(spec);
    case 'regex':
      return describeRegex(spec);
    case 'number':
      return describeNumber(spec);
    case 'json':
      return describeJson(spec);
    case 'label':
      return describeLabel(spec);
    case 'module':
      return describeModule(spec);
    case 'all':
      return `all of ${spec.of.map((s) => s.type).join(', ')}`;
  }
}

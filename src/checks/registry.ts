/**
 * Every check, one line each. `report/` and `pipeline/` loop over this list and never name a
 * check: a check owns its plan, analysis, gate, rules, report parts and settings block (see
 * `Check`). This module hands each check's settings schema to the config
 * (`registerCheckSettings`); the type of that block comes from the check's `settings.ts`.
 */
import { z } from 'zod';
import {
  activeConfigSchema,
  type CheckName,
  type CheckSettingsBlocks,
  type ConfigSchema,
  type GateConfig,
  registerCheckSettings,
} from '../config/schema.js';
import { registerRecordFormat } from '../sampleLog/index.js';
import type { PlanGrowth, WorkUnit } from './workUnit.js';
import type { Chart } from '../render/svg.js';
import { churnCheck } from './churn/index.js';
import { dragonCheck } from './dragon/index.js';
import type { CheckOutput, HeadlineFields, ReportHeadline } from './headline.js';
import { personasCheck } from './personas/index.js';
import type { NightlyColumn, NightlyFields, NightlyValues } from './nightly.js';
import type { NightlyRule } from './nightlyRule.js';
import type { CheckOverride } from './override.js';
import { registerCheckOverride } from '../config/overrides.js';
import type { CheckStarter } from './starter.js';
import type { CheckCommand, CheckCommands } from './command.js';
import type {
  Check,
  CheckContext,
  CheckFold,
  CheckPage,
  CheckPageInput,
  GateFinding,
  GateRuleCard,
  GlanceContext,
  PreviousReportSetting,
} from './types.js';

/**
 * A check behind one erased type: the job only moves definitions from `load` to
 * `plan`/`analyse` and sections from `analyse` to `gate` and the report, never looks inside.
 */
export interface AnyCheck {
  name: CheckName;
  unit: readonly [string, string];
  load(ctx: CheckContext): Promise<unknown>;
  warnings(definitions: unknown): readonly string[];
  limit(definitions: unknown, n: number): unknown;
  plan(definitions: unknown, ctx: CheckContext, model: string): WorkUnit[];
  growth(definitions: unknown, ctx: CheckContext): PlanGrowth | null;
  fold: CheckFold<unknown, unknown>;
  gate(section: unknown, ctx: CheckContext, previous?: unknown): GateFinding[];
  rules(section: unknown, ctx: CheckContext): GateRuleCard[];
  maxTimeoutShare(config: GateConfig): number;
  promptHashes(config: GateConfig): Record<string, string>;
  staleReason: string | null;
  isControl(model: string): boolean;
  planNotes(config: GateConfig, units: readonly WorkUnit[]): string[];
  previousReport: PreviousReportSetting | null;
  starter(): CheckStarter | null;
  /** Null when the check has no part of its own in report.html. */
  page(input: CheckPageInput<unknown, unknown>): CheckPage | null;
  sectionSchema: Check<unknown, unknown>['sectionSchema'];
  headline: HeadlineFields | null;
  outputs: readonly CheckOutput[];
  nightly: NightlyFields | null;
  nightlyRule: NightlyRule<unknown> | null;
  overrides: readonly CheckOverride[];
  commands: CheckCommands | null;
  imports: readonly CheckCommand[];
  measures: string | null;
  report: {
    section(section: unknown): string;
    charts(section: unknown): Chart[];
    glanceChart(section: unknown, config: GateConfig): string | null;
    glance(section: unknown, context: GlanceContext): string[][];
    settings(config: GateConfig): string[][];
  };
}

/** Erases a check's definition and section types; absent optional parts do nothing. */
export function eraseCheck<D, S>(check: Check<D, S>): AnyCheck {
  const { report } = check;
  return {
    name: check.name,
    unit: check.unit,
    load: (ctx) => check.load(ctx),
    warnings: (definitions) => check.warnings?.(definitions as D) ?? [],
    limit: (definitions, n) => check.limit(definitions as D, n),
    plan: (definitions, ctx, model) => check.plan(definitions as D, ctx, model),
    growth: (definitions, ctx) => check.growth?.(definitions as D, ctx) ?? null,
    fold: check.fold as CheckFold<unknown, unknown>,
    gate: (section, ctx, previous) => check.gate(section as S, ctx, previous),
    rules: (section, ctx) => check.rules?.(section as S, ctx) ?? [],
    maxTimeoutShare: (config) => check.maxTimeoutShare(config),
    promptHashes: (config) => check.promptHashes?.(config) ?? {},
    staleReason: check.staleReason ?? null,
    isControl: (model) => check.isControl?.(model) ?? false,
    planNotes: (config, units) => check.planNotes?.(config, units) ?? [],
    previousReport: check.previousReport ?? null,
    starter: () => check.starter?.() ?? null,
    page: (input) =>
      check.page?.({
        ...input,
        section: input.section as S,
        definitions: input.definitions as D,
      }) ?? null,
    sectionSchema: check.sectionSchema as Check<unknown, unknown>['sectionSchema'],
    headline: check.headline ?? null,
    outputs: check.outputs ?? [],
    nightly: check.nightly ?? null,
    nightlyRule: check.nightlyRule ?? null,
    overrides: check.overrides ?? [],
    commands: check.commands ?? null,
    imports: check.imports ?? [],
    measures: check.measures ?? null,
    report: {
      section: (section) => report.section(section as S),
      charts: (section) => report.charts?.(section as S) ?? [],
      glanceChart: (section, config) => report.glanceChart?.(section as S, config) ?? null,
      glance: (section, context) => report.glance?.(section as S, context) ?? [],
      settings: (config) => report.settings?.(config) ?? [],
    },
  };
}

/**
 * The settings blocks every config has: a built-in check's. A check added at run time declares
 * its block optional (a config without the check has none).
 */
type BuiltInBlocks = {
  [K in keyof CheckSettingsBlocks as undefined extends CheckSettingsBlocks[K] ? never : K]: unknown;
};

/**
 * One line per built-in check, in report order. Typed against the settings blocks the checks
 * declare (config/schema.ts `CheckSettingsBlocks`), so a check with settings is not missed.
 */
const BUILT_IN = {
  churn: churnCheck,
  dragon: dragonCheck,
  personas: personasCheck,
} as const satisfies Record<keyof BuiltInBlocks, { name: CheckName }>;

type BuiltInName = keyof typeof BUILT_IN;

/** The built-in checks' names, in report order (report.json's `check` fields). */
export const BUILT_IN_CHECK_NAMES = Object.keys(BUILT_IN) as [BuiltInName, ...BuiltInName[]];

const CHECKS: AnyCheck[] = BUILT_IN_CHECK_NAMES.map((name) => {
  const check = BUILT_IN[name];
  if (check.name !== name) throw new Error(`the check ${check.name} is listed as ${name}`);
  registerCheckSettings(name, check.settingsSchema, true);
  registerRecordFormat(name, check.records);
  registerOverrides(check);
  return eraseCheck<unknown, unknown>(check);
});

/** A check's own settings the config takes as flags and action inputs, under its block. */
function registerOverrides(check: { name: CheckName; overrides?: readonly CheckOverride[] }): void {
  for (const own of check.overrides ?? []) {
    registerCheckOverride(own.name, [check.name, ...own.setting], own.parse);
  }
}

/** The config schema: the config's own blocks and every registered check's settings block. */
export function configSchema(): ConfigSchema {
  return activeConfigSchema();
}

/** Each built-in check's section of report.json, for the report schema to compose. */
export type SectionSchemas = {
  [K in BuiltInName]: z.ZodOptional<(typeof BUILT_IN)[K]['sectionSchema']>;
};

export function sectionSchemas(): SectionSchemas {
  const shape = Object.fromEntries(
    BUILT_IN_CHECK_NAMES.map((name) => [name, BUILT_IN[name].sectionSchema.optional()]),
  );
  return shape as SectionSchemas;
}

/** Every check, in report order (the order of sections, charts and settings). */
export function allChecks(): readonly AnyCheck[] {
  return CHECKS;
}

/** The check of this name; throws for a name no check has (a bug, not bad input). */
export function checkNamed(name: CheckName): AnyCheck {
  const check = CHECKS.find((c) => c.name === name);
  if (!check) throw new Error(`no check is registered under the name ${name}`);
  return check;
}

/**
 * Adds a check after the built-in ones (an extension, or a test's toy check): its name joins
 * the config's `checks:` list, its settings block is read under its name, its records are
 * kept in the sample log, and the report shows its section, rules and verdict.
 */
export function registerCheck<D, S>(check: Check<D, S>): void {
  if (CHECKS.some((c) => c.name === check.name)) {
    throw new Error(`a check named ${check.name} is already registered`);
  }
  registerCheckSettings(check.name, check.settingsSchema);
  registerRecordFormat(check.name, check.records);
  registerOverrides(check);
  CHECKS.push(eraseCheck(check));
}

/** A check's section among a report's sections (undefined when the report has none). */
export function sectionOf(sections: object, name: CheckName): unknown {
  return (sections as Record<string, unknown>)[name];
}

/**
 * report.json's headline: every registered check's fields, in report order. The report schema
 * composes it when it is first read (the built-in checks); a check registered later fills its
 * fields of a report it builds.
 */
export function headlineSchema(): z.ZodType<ReportHeadline> {
  const shape = Object.assign({}, ...CHECKS.map((c) => c.headline?.schema ?? {}));
  return z.object(shape) as unknown as z.ZodType<ReportHeadline>;
}

/** The headline from a report's sections: each check's fields, null where it did not run. */
export function headlineOf(sections: object): ReportHeadline {
  const headline = {} as ReportHeadline;
  for (const check of CHECKS) {
    if (!check.headline) continue;
    Object.assign(
      headline,
      check.headline.empty,
      check.headline.read(sectionOf(sections, check.name)),
    );
  }
  return headline;
}

/** The checks' outputs of the action, in report order (action.yml lists them so). */
export function checkOutputs(): readonly CheckOutput[] {
  return CHECKS.flatMap((c) => c.outputs);
}

/**
 * The built-in checks in the order their numbers were first written on a history line (and
 * its table's columns); a check registered later comes after them.
 */
const NIGHTLY_ORDER: readonly BuiltInName[] = ['dragon', 'personas', 'churn'];

function nightlyFields(): NightlyFields[] {
  const rank = (c: AnyCheck) => {
    const at = NIGHTLY_ORDER.indexOf(c.name as BuiltInName);
    return at === -1 ? NIGHTLY_ORDER.length : at;
  };
  return [...CHECKS]
    .sort((a, b) => rank(a) - rank(b))
    .flatMap((c) => (c.nightly ? [c.nightly] : []));
}

/** The nightly fields of a history line, every registered check's, in history order. */
export function nightlyShape(): z.ZodRawShape {
  return Object.assign({}, ...nightlyFields().map((f) => f.schema));
}

/** The history table's columns of the checks' numbers, in the order of the fields. */
export function nightlyColumns(): readonly NightlyColumn[] {
  return nightlyFields().flatMap((f) => f.columns);
}

/** A night's numbers from a single-model report's sections, null where a check did not run. */
export function nightlyOf(sections: object): NightlyValues {
  const values = {} as NightlyValues;
  for (const fields of nightlyFields()) Object.assign(values, fields.empty);
  for (const check of CHECKS) {
    if (check.nightly) Object.assign(values, check.nightly.read(sectionOf(sections, check.name)));
  }
  return values;
}

/** Every registered check's nightly rule, in report order, with the check it belongs to. */
export function nightlyRules(): readonly { check: CheckName; rule: NightlyRule<unknown> }[] {
  return CHECKS.flatMap((c) => (c.nightlyRule ? [{ check: c.name, rule: c.nightlyRule }] : []));
}

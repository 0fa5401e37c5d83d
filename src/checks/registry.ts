/**
 * Every check, one line each. `report/` and `pipeline/` loop over this list and never name a
 * check: a check owns its plan, analysis, gate, rules, report parts and settings block (see
 * `Check`). This module hands each check's settings schema to the config
 * (`registerCheckSettings`); the type of that block comes from the check's `settings.ts`.
 */
import type { z } from 'zod';
import {
  activeConfigSchema,
  type CheckName,
  type CheckSettingsBlocks,
  type ConfigSchema,
  type GateConfig,
  registerCheckSettings,
} from '../config/schema.js';
import type { SampleRecord } from '../sampleLog/index.js';
import type { PlanGrowth, WorkUnit } from './workUnit.js';
import type { Chart } from '../render/svg.js';
import { churnCheck } from './churn/index.js';
import { dragonCheck } from './dragon/index.js';
import type { ReportHeadline } from './headline.js';
import { personasCheck } from './personas/index.js';
import type { NightlyValues } from './nightly.js';
import type { CheckStarter } from './starter.js';
import type {
  Check,
  CheckContext,
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
  analyse(records: readonly SampleRecord[], definitions: unknown, ctx: CheckContext): unknown;
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
  report: {
    section(section: unknown): string;
    charts(section: unknown): Chart[];
    glanceChart(section: unknown, config: GateConfig): string | null;
    glance(section: unknown, context: GlanceContext): string[][];
    headline(section: unknown): Partial<ReportHeadline>;
    settings(config: GateConfig): string[][];
    nightly(section: unknown): Partial<NightlyValues>;
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
    analyse: (records, definitions, ctx) => check.analyse(records, definitions as D, ctx),
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
    report: {
      section: (section) => report.section(section as S),
      charts: (section) => report.charts?.(section as S) ?? [],
      glanceChart: (section, config) => report.glanceChart?.(section as S, config) ?? null,
      glance: (section, context) => report.glance?.(section as S, context) ?? [],
      headline: (section) => report.headline?.(section) ?? {},
      settings: (config) => report.settings?.(config) ?? [],
      nightly: (section) => report.nightly?.(section) ?? {},
    },
  };
}

/**
 * One line per built-in check, in report order. Typed against the settings blocks the checks
 * declare (config/schema.ts `CheckSettingsBlocks`), so a check with settings is not missed.
 */
const BUILT_IN = {
  churn: churnCheck,
  dragon: dragonCheck,
  personas: personasCheck,
} as const satisfies Record<keyof CheckSettingsBlocks, { name: CheckName }>;

type BuiltInName = keyof typeof BUILT_IN;

/** The built-in checks' names, in report order (report.json's `check` fields). */
export const BUILT_IN_CHECK_NAMES = Object.keys(BUILT_IN) as [BuiltInName, ...BuiltInName[]];

const CHECKS: AnyCheck[] = BUILT_IN_CHECK_NAMES.map((name) => {
  const check = BUILT_IN[name];
  if (check.name !== name) throw new Error(`the check ${check.name} is listed as ${name}`);
  registerCheckSettings(name, check.settingsSchema, true);
  return eraseCheck<unknown, unknown>(check);
});

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
  CHECKS.push(eraseCheck(check));
}

/** A check's section among a report's sections (undefined when the report has none). */
export function sectionOf(sections: object, name: CheckName): unknown {
  return (sections as Record<string, unknown>)[name];
}

/**
 * report.json as a zod schema: the single source of the report's TypeScript types
 * (report/types.ts infers them), of the JSON Schema file (schema/report.schema.json) and of the
 * validation applied when a report is read back (nightly comparison, re-analysis). Check
 * sections and headline values are owned by their checks (`Check.sectionSchema`,
 * checks/headline.ts) and kept open here: only a section's `check` tag is fixed. Parts owned
 * by other stages (the config, server hygiene, nightly history) are validated loosely and
 * typed by their owners. See docs/report-schema.md.
 */
import { z } from 'zod';
import { BUILT_IN_CHECK_NAMES, CHECKS, SECTION_SCHEMAS } from '../checks/builtIn.js';
import { headlineSchema } from '../checks/list.js';
import { SEVERITIES, VERDICT_STATUSES } from '../checks/types.js';
import { type CheckName, type GateConfig, PROVIDER_KINDS } from '../config/schema.js';
import type { HistorySection } from '../history/section.js';
import type { RunOperations } from '../operations/types.js';

export const REPORT_SCHEMA = 'model-gate.report/1';

/** A part validated loosely here and typed by the stage that owns it. */
function ownedBy<T>(schema: z.ZodType): z.ZodType<T> {
  return schema as unknown as z.ZodType<T>;
}

/** A check's name: the built-in ones are validated on read; the type is open to registered ones. */
const checkNameSchema = ownedBy<CheckName>(z.enum(BUILT_IN_CHECK_NAMES));

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

const findingSchema = z
  .object({
    check: checkNameSchema,
    rule: z.string().min(1).describe('Stable rule id, e.g. "max-deteriorated".'),
    severity: z.enum(SEVERITIES),
    message: z.string().describe('The rule evaluated, as a sentence.'),
    values: z
      .record(z.string(), z.union([finite, z.string(), z.boolean(), z.null()]))
      .optional()
      .describe('The numbers behind the sentence.'),
  })
  .describe('One gate rule evaluated.');

const ruleSchema = z
  .object({
    check: checkNameSchema,
    rule: z.string().min(1),
    tests: z.string().describe('What the rule tests, in one line.'),
    falseAlarmRate: z
      .number()
      .min(0)
      .max(1)
      .describe('Chance, at most, that two identical models trip the rule in one run.'),
    falseAlarmBasis: z.string().describe('How the rate is known (design level, simulation).'),
    detects: z.string().describe('Smallest effect detected with ≥ 80% power at these settings.'),
    outcome: z.enum(['pass', 'fail', 'warn', 'inconclusive', 'info', 'not-evaluated']),
  })
  .describe('One gate rule as a statistical test.');

const modelSchema = z.object({
  model: z.string(),
  digest: z.string().nullable(),
  quantization: z.string().nullable(),
  parameterSize: z.string().nullable(),
  family: z.string().nullable(),
  simulated: z.boolean(),
});

const tallySchema = z.object({
  model: z.string(),
  total: z.number().int().min(0),
  ok: z.number().int().min(0),
  invalid: z.number().int().min(0),
  timeout: z.number().int().min(0),
  error: z.number().int().min(0),
  perturbed: z.boolean(),
  meanLatencyMs: finite.nullable(),
});

const units = z.number().int().min(0);

const coverageSchema = z
  .object({
    complete: z
      .boolean()
      .describe('True when every planned unit is in the logs and the run finished.'),
    interrupted: z.boolean().describe('The run was stopped by a signal before it finished.'),
    missingShards: z
      .array(z.string())
      .describe('Members of a shard set the logs lack, e.g. "2/3".'),
    shard: z
      .string()
      .nullable()
      .describe('"i/n" when the report covers one shard\'s slice of the plan, else null.'),
    rows: z.array(
      z.object({
        check: checkNameSchema,
        model: z.string(),
        role: z.enum(['baseline', 'candidate']),
        unit: z.string().describe('What a unit is: samples, games, answers.'),
        planned: units,
        answered: units.describe('The model answered (ok or invalid).'),
        failed: units.describe('A request failed (error or timeout).'),
        missing: units.describe('Not in the logs, or a game cut before its end.'),
      }),
    ),
    missing: z
      .string()
      .nullable()
      .describe('The sentence saying what is missing; null when complete.'),
  })
  .describe('How much of the plan the report covers; anything short of complete is inconclusive.');

export const reportSchema = z
  .object({
    schema: z.literal(REPORT_SCHEMA),
    tool: z.object({ name: z.string(), version: z.string() }),
    createdAt: z.iso.datetime().describe('When the report was built (UTC, ISO 8601).'),
    run: z.object({
      provider: z.object({
        provider: z.enum(PROVIDER_KINDS),
        host: z.string(),
        version: z.string().nullable(),
        simulated: z.boolean(),
      }),
      models: z.object({ baseline: modelSchema.nullable(), candidate: modelSchema.nullable() }),
      config: ownedBy<GateConfig>(
        z
          .record(z.string(), z.unknown())
          .describe('The validated config the run used, defaults filled in (camelCase keys).'),
      ),
      logs: z.array(z.string()),
      loadedBefore: z.array(z.string()).nullable(),
      requests: z.array(tallySchema),
      warnings: z.array(z.string()),
      shards: z.array(z.string()),
      promptHashes: z.record(z.string(), z.string().regex(/^[0-9a-f]{64}$/)).optional(),
      operations: ownedBy<RunOperations>(
        z.looseObject({ series: z.array(z.unknown()), gpu: z.looseObject({ note: z.string() }) }),
      )
        .optional()
        .describe('Server hygiene before each series and GPU telemetry during it (runs only).'),
      coverage: coverageSchema.optional(),
    }),
    checks: z.object(SECTION_SCHEMAS),
    headline: headlineSchema(CHECKS),
    verdict: z.object({
      status: z.enum(VERDICT_STATUSES),
      reasons: z.array(findingSchema),
      suppressed: z.array(findingSchema),
      rules: z.array(ruleSchema).default([]),
    }),
    history: ownedBy<HistorySection>(
      z.looseObject({ model: z.string(), nights: z.array(z.unknown()) }),
    )
      .optional()
      .describe('Nightly history (output.history): the last nights and the drift rule.'),
  })
  .describe('model-gate report: run metadata, one section per check, the verdict.');

/** The JSON Schema (draft 2020-12) written to schema/report.schema.json. */
export function reportJsonSchema(): Record<string, unknown> {
  return {
    title: 'model-gate report.json',
    ...z.toJSONSchema(reportSchema, { target: 'draft-2020-12', io: 'input' }),
  };
}

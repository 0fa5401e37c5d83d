/**
 * The checks model-gate ships, one line each, in report order. The entry points (CLI, action,
 * benchmarks) pass this list down; a new check is one folder and one line here.
 */
import { registerRecordFormat } from '../sampleLog/index.js';
import { churnCheck } from './churn/index.js';
import { dragonCheck } from './dragon/index.js';
import { personasCheck } from './personas/index.js';
import { speedCheck } from './speed/index.js';
import type { ConfigOf } from '../config/schema.js';
import type { AnyCheck } from './types.js';

export const CHECKS = [
  churnCheck,
  dragonCheck,
  personasCheck,
  speedCheck,
] as const satisfies readonly AnyCheck[];

/** The built-in checks' names, in report order (report.json's `check` fields). */
export const BUILT_IN_CHECK_NAMES = CHECKS.map((c) => c.name) as [string, ...string[]];

/** Each built-in check's section of report.json, typed by the check, for the report schema. */
export const SECTION_SCHEMAS = {
  churn: churnCheck.sectionSchema.optional(),
  dragon: dragonCheck.sectionSchema.optional(),
  personas: personasCheck.sectionSchema.optional(),
  speed: speedCheck.sectionSchema.optional(),
};

// The sample log reads each check's records by the check's format. Left a table filled here
// until the log reader takes the list of checks as the rest of the host does.
for (const check of CHECKS) registerRecordFormat(check.name, check.log?.format);

/** The config as the built-in checks read it: each one's block typed. */
export type BuiltInConfig = ConfigOf<(typeof CHECKS)[number]>;

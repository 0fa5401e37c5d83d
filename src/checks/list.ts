/**
 * What the host reads from a list of checks: a check by name, each check's part of the
 * headline, the outputs and the nightly history. The list is the one the entry point passes
 * (`builtIn.ts`, or a test's with a toy check): `report/`, `pipeline/` and `history/` loop over
 * it and never name a check.
 */
import { z } from 'zod';
import type { CheckName } from '../config/schema.js';
import type { CheckOutput, ReportHeadline } from './headline.js';
import type { NightlyColumn, NightlyFields, NightlyValues } from './nightly.js';
import type { NightlyRule } from './nightlyRule.js';
import type { AnyCheck } from './types.js';

/** The checks of a run, in report order (the order of sections, charts and settings). */
export type CheckList = readonly AnyCheck[];

/** The check of this name; throws for a name no check of the list has (a bug, not bad input). */
export function checkNamed(checks: CheckList, name: CheckName): AnyCheck {
  const check = checks.find((c) => c.name === name);
  if (!check) throw new Error(`no check of this run is named ${name}`);
  return check;
}

/** A check's section among a report's sections (undefined when the report has none). */
export function sectionOf(sections: object, name: CheckName): unknown {
  return (sections as Record<string, unknown>)[name];
}

/** report.json's headline: every check's fields, in report order. */
export function headlineSchema(checks: CheckList): z.ZodType<ReportHeadline> {
  const shape = Object.assign({}, ...checks.map((c) => c.headline?.fields.schema ?? {}));
  return z.object(shape) as unknown as z.ZodType<ReportHeadline>;
}

/** The headline from a report's sections: each check's fields, null where it did not run. */
export function headlineOf(checks: CheckList, sections: object): ReportHeadline {
  const headline: ReportHeadline = {};
  for (const check of checks) {
    if (!check.headline) continue;
    const { fields } = check.headline;
    Object.assign(headline, fields.empty, fields.read(sectionOf(sections, check.name)));
  }
  return headline;
}

/** The checks' outputs of the action, in report order (action.yml lists them so). */
export function checkOutputs(checks: CheckList): readonly CheckOutput[] {
  return checks.flatMap((c) => c.headline?.outputs ?? []);
}

/** A check's place among the history's columns: where it says, else after those that say. */
const columnOf = (fields: NightlyFields) => fields.column ?? Number.MAX_SAFE_INTEGER;

/** Each check's nightly fields, in the order of the history's columns (a stable sort). */
function nightlyFields(checks: CheckList): NightlyFields[] {
  return checks
    .flatMap((c) => (c.nightly ? [c.nightly.fields] : []))
    .sort((a, b) => columnOf(a) - columnOf(b));
}

/** The nightly fields of a history line, every check's, in history order. */
export function nightlyShape(checks: CheckList): z.ZodRawShape {
  return Object.assign({}, ...nightlyFields(checks).map((f) => f.schema));
}

/** The history table's columns of the checks' numbers, in the order of the fields. */
export function nightlyColumns(checks: CheckList): readonly NightlyColumn[] {
  return nightlyFields(checks).flatMap((f) => f.columns);
}

/** A night's numbers from a single-model report's sections, null where a check did not run. */
export function nightlyOf(checks: CheckList, sections: object): NightlyValues {
  const values: NightlyValues = {};
  for (const fields of nightlyFields(checks)) Object.assign(values, fields.empty);
  for (const check of checks) {
    if (check.nightly)
      Object.assign(values, check.nightly.fields.read(sectionOf(sections, check.name)));
  }
  return values;
}

/** Every check's nightly rule, in report order, with the check it belongs to. */
export function nightlyRules(
  checks: CheckList,
): readonly { check: CheckName; rule: NightlyRule<unknown, object> }[] {
  return checks.flatMap((c) => (c.nightly?.rule ? [{ check: c.name, rule: c.nightly.rule }] : []));
}

/**
 * Assembles report.json from what the run and the analyses produced. Pure: the caller passes
 * the time, so the same inputs give the same report.
 */
import { CHECKS } from '../checks/builtIn.js';
import { type CheckList, headlineOf } from '../checks/list.js';
import type { EvaluatedGateRule, GateFinding } from '../checks/types.js';
import type { HistorySection } from '../history/section.js';
import { TOOL_NAME, TOOL_VERSION } from '../version.js';
import { REPORT_SCHEMA } from './schema.js';
import type { Report, RunMetadata } from './types.js';
import { decideVerdict } from './verdict.js';

export interface BuildReportInput {
  run: RunMetadata;
  /** One section per check that ran (plain JSON from each check's `analyse`). */
  sections: Report['checks'];
  /** Every check's gate findings. */
  findings: readonly GateFinding[];
  /** Every gate rule as a test, with its outcome on this run. */
  rules?: readonly EvaluatedGateRule[];
  createdAt: Date | string;
  /** Nightly history section (its drift finding is among `findings`). */
  history?: HistorySection;
  /** The checks of the run, in report order (default: the built-in ones). */
  checks?: CheckList;
}

export function buildReport(input: BuildReportInput): Report {
  const warnings: string[] = [];
  const sections = toPlainJson(input.sections, 'checks', warnings) as Report['checks'];
  const findings = toPlainJson(input.findings, 'findings', warnings) as GateFinding[];
  const rules = toPlainJson(input.rules ?? [], 'rules', warnings) as EvaluatedGateRule[];
  const createdAt =
    typeof input.createdAt === 'string'
      ? new Date(input.createdAt).toISOString()
      : input.createdAt.toISOString();
  return {
    schema: REPORT_SCHEMA,
    tool: { name: TOOL_NAME, version: TOOL_VERSION },
    createdAt,
    run: { ...input.run, warnings: [...input.run.warnings, ...warnings] },
    checks: sections,
    // Each check fills its own numbers (the action outputs) from its section.
    headline: headlineOf(input.checks ?? CHECKS, sections),
    verdict: { ...decideVerdict(findings, input.checks ?? CHECKS), rules },
    ...(input.history
      ? { history: toPlainJson(input.history, 'history', warnings) as HistorySection }
      : {}),
  };
}

/**
 * A deep copy that JSON keeps exactly. JSON.stringify would silently turn NaN and Infinity
 * into null and drop undefined; here the same happens, but each replaced value is named in a
 * run warning so a reader knows a metric could not be computed.
 */
function toPlainJson(value: unknown, path: string, warnings: string[]): unknown {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return value;
    warnings.push(`${path} was ${String(value)}; written as null`);
    return null;
  }
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) {
    return value.map((item, i) =>
      item === undefined ? null : toPlainJson(item, `${path}[${i}]`, warnings),
    );
  }
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      out[key] = toPlainJson(item, `${path}.${key}`, warnings);
    }
    return out;
  }
  throw new TypeError(`${path}: a ${typeof value} cannot be written to report.json`);
}

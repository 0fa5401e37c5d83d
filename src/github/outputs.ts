/**
 * The action's outputs (see action.yml), from the report. Shares and ECE are rounded to
 * `OUTPUT_DECIMALS` decimal places (0.0004, 0.2755: a hundredth of a percentage point, finer
 * than any sample here resolves), written with a dot and a plain hyphen for a workflow's
 * shell or expression to read; an unknown number is an empty string; `reversals` are the
 * domain names separated by commas (empty when there is none). report.json keeps full precision.
 */
import * as core from '@actions/core';
import { CHECKS } from '../checks/builtIn.js';
import { type CheckList, checkOutputs } from '../checks/list.js';
import type { Report } from '../report/types.js';
import { machineNumber } from '../text/format.js';

/** Decimal places of the numeric outputs; documented in action.yml and the README. */
export const OUTPUT_DECIMALS = 4;

/** The outputs every run has, before the checks' own (`Check.headline.outputs`). */
const LEADING_OUTPUTS = ['verdict', 'report-path', 'summary-path'] as const;
/** The outputs every run has, after the checks' own. */
const TRAILING_OUTPUTS = ['artifact-url', 'incomplete'] as const;

/** Every output of the action, in action.yml's order: the run's, then each check's. */
export function actionOutputNames(checks: CheckList = CHECKS): string[] {
  return [...LEADING_OUTPUTS, ...checkOutputs(checks).map((o) => o.name), ...TRAILING_OUTPUTS];
}

export type ActionOutputs = Record<string, string>;

/** An output's text: a number rounded, a string as it is, null empty. */
function outputText(value: number | string | null): string {
  return typeof value === 'string' ? value : machineNumber(value, OUTPUT_DECIMALS);
}

export function actionOutputs(
  report: Report,
  files: { report: string; summary: string },
  artifactUrl: string | null,
  checks: CheckList = CHECKS,
): ActionOutputs {
  const h = report.headline;
  const { status } = report.verdict;
  const shard = report.run.coverage?.shard;
  const own = checkOutputs(checks).map((o) => [o.name, outputText(o.value(h))] as const);
  return {
    // A shard's slice is not the gate's verdict: a workflow testing for "pass" or "fail" must
    // not take it for one.
    verdict: shard && status !== 'inconclusive' ? `shard ${shard} measured` : status,
    'report-path': files.report,
    'summary-path': files.summary,
    ...Object.fromEntries(own),
    'artifact-url': artifactUrl ?? '',
    incomplete: report.run.coverage?.missing ?? '',
  };
}

/** Writes the outputs to GITHUB_OUTPUT through `core.setOutput`. */
export function setActionOutputs(
  outputs: ActionOutputs,
  setOutput: (name: string, value: string) => void = core.setOutput,
): void {
  for (const name of actionOutputNames()) setOutput(name, outputs[name] ?? '');
}

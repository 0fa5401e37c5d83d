/**
 * The action's outputs (see action.yml), from the report. Shares and ECE are rounded to
 * `OUTPUT_DECIMALS` decimal places (0.0004, 0.2755: a hundredth of a percentage point, finer
 * than any sample here resolves), written with a dot and a plain hyphen for a workflow's
 * shell or expression to read; an unknown number is an empty string; `reversals` are the
 * domain names separated by commas (empty when there is none). report.json keeps full precision.
 */
import * as core from '@actions/core';
import type { Report } from '../report/types.js';
import { machineNumber } from '../text/format.js';
import { neutralise } from '../text/neutralise.js';

/** Decimal places of the numeric outputs; documented in action.yml and the README. */
export const OUTPUT_DECIMALS = 4;

export const ACTION_OUTPUTS = [
  'verdict',
  'report-path',
  'summary-path',
  'churn-rate',
  'deteriorated',
  'reversals',
  'ece-baseline',
  'ece-candidate',
  'persona-accuracy',
  'artifact-url',
  'incomplete',
] as const;
export type ActionOutput = (typeof ACTION_OUTPUTS)[number];
export type ActionOutputs = Record<ActionOutput, string>;

function number(value: number | null): string {
  return machineNumber(value, OUTPUT_DECIMALS);
}

export function actionOutputs(
  report: Report,
  files: { report: string; summary: string },
  artifactUrl: string | null,
): ActionOutputs {
  const h = report.headline;
  const { status } = report.verdict;
  const shard = report.run.coverage?.shard;
  return {
    // A shard's slice is not the gate's verdict: a workflow testing for "pass" or "fail" must
    // not take it for one.
    verdict: shard && status !== 'inconclusive' ? `shard ${shard} measured` : status,
    'report-path': files.report,
    'summary-path': files.summary,
    'churn-rate': number(h.churnRate),
    deteriorated: number(h.deteriorated),
    // A comma inside a domain name would split it: it is replaced for this list only. Domains
    // come from the item file: shown neutralised, as everywhere else.
    reversals: h.reversals.map((domain) => neutralise(domain, 200).replace(/,/g, ' ')).join(','),
    'ece-baseline': number(h.eceBaseline),
    'ece-candidate': number(h.eceCandidate),
    'persona-accuracy': number(h.personaAccuracy),
    'artifact-url': artifactUrl ?? '',
    incomplete: report.run.coverage?.missing ?? '',
  };
}

/** Writes the outputs to GITHUB_OUTPUT through `core.setOutput`. */
export function setActionOutputs(
  outputs: ActionOutputs,
  setOutput: (name: string, value: string) => void = core.setOutput,
): void {
  for (const name of ACTION_OUTPUTS) setOutput(name, outputs[name]);
}

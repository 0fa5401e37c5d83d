/**
 * The action's outputs (see action.yml), from the report. Numbers are written as JavaScript
 * prints them (0.275), an unknown number as an empty string, `reversals` as the domain names
 * separated by commas (empty when there is none).
 */
import * as core from '@actions/core';
import type { Report } from '../report/types.js';
import { neutralise } from '../text/neutralise.js';

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
  return value === null ? '' : String(value);
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

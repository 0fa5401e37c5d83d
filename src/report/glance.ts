/**
 * Small inline charts (mermaid, drawn by GitHub in the job summary and the PR comment) of the
 * pictures a reviewer needs first, one per check that draws one (churn: where the candidate
 * got reliably worse or better by domain; dragon: whether stated confidence matches success).
 * The full SVG charts stay with each check. A chart that lacks its data is left out.
 */
import { type CheckList, sectionOf } from '../checks/list.js';
import type { Report } from './types.js';

export function glanceCharts(report: Report, checks: CheckList): string[] {
  const charts: string[] = [];
  for (const check of checks) {
    const section = sectionOf(report.checks, check.name);
    const chart = section ? (check.report.glanceChart?.(section, report.run.config) ?? null) : null;
    if (chart !== null) charts.push(chart);
  }
  return charts;
}

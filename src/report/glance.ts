/**
 * Small inline charts (mermaid, drawn by GitHub in the job summary and the PR comment) of the
 * two pictures a reviewer needs first: where the candidate got reliably worse or better by
 * domain, and whether stated confidence matches success. The full SVG charts stay with each
 * check. Sections are read defensively: a chart that lacks its data is left out.
 */
import { churnGlanceChart } from '../checks/churn/report/glance.js';
import { dragonGlanceChart } from '../checks/dragon/report/glance.js';
import type { Report } from './types.js';

export function glanceCharts(report: Report): string[] {
  const { churn, dragon } = report.checks;
  return [
    churn ? churnGlanceChart(churn, report.run.config) : null,
    dragon ? dragonGlanceChart(dragon) : null,
  ].filter((c): c is string => c !== null);
}

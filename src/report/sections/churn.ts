import type { ChurnSection } from '../../checks/churn/section.js';
import type { Chart } from '../svg.js';

/** Markdown for the churn part of summary.md, rendered from report.json alone. */
export function renderChurnSection(section: ChurnSection): string {
  return `### churn\n\n(${Object.keys(section).length} fields)\n`;
}

/** SVG charts of the churn check, written next to report.json. */
export function churnCharts(_section: ChurnSection): Chart[] {
  return [];
}

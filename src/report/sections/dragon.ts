import type { DragonSection } from '../../checks/dragon/section.js';
import type { Chart } from '../svg.js';

/** Markdown for the dragon part of summary.md, rendered from report.json alone. */
export function renderDragonSection(section: DragonSection): string {
  return `### dragon\n\n(${Object.keys(section).length} fields)\n`;
}

/** SVG charts of the dragon check, written next to report.json. */
export function dragonCharts(_section: DragonSection): Chart[] {
  return [];
}

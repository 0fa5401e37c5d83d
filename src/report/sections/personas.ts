import type { PersonasSection } from '../../checks/personas/section.js';
import type { Chart } from '../svg.js';

/** Markdown for the personas part of summary.md, rendered from report.json alone. */
export function renderPersonasSection(section: PersonasSection): string {
  return `### personas\n\n(${Object.keys(section).length} fields)\n`;
}

/** SVG charts of the personas check, written next to report.json. */
export function personasCharts(_section: PersonasSection): Chart[] {
  return [];
}

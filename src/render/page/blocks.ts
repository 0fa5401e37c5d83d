/** Blocks every part of the page uses: section headings, chart strips, notes, tables of rows. */
import type { PageChart, PageTable } from './types.js';
import { type Child, el, textTable } from './dom.js';

export function section(id: string, title: string, ...children: Child[]): HTMLElement {
  return el(
    'section',
    { id, 'aria-labelledby': `${id}-title` },
    el('h2', { id: `${id}-title` }, title),
    ...children,
  );
}

/** The charts of one part of the page, as the SVG files beside report.json draw them. */
export function chartStrip(charts: readonly PageChart[], part: string): HTMLElement | null {
  const own = charts.filter((c) => c.part === part);
  if (own.length === 0) return null;
  return el(
    'div',
    { class: 'charts' },
    ...own.map((chart) =>
      el(
        'figure',
        {},
        el('img', { src: chart.uri, alt: chart.title }),
        el('figcaption', {}, chart.title),
      ),
    ),
  );
}

export function notes(lines: readonly string[]): HTMLElement | null {
  if (lines.length === 0) return null;
  return el('ul', { class: 'muted' }, ...lines.map((line) => el('li', {}, line)));
}

export function rowsTable(table: PageTable): HTMLTableElement {
  return textTable(table.columns, table.rows);
}

export function badge(status: string): HTMLElement {
  return el('span', { class: `badge ${status.replace(/[^a-z-]/g, '')}` }, status);
}

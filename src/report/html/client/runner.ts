/** The runner's operations, the nightly history, a check without a part of its own, provenance. */
import { chartStrip, notes, rowsTable, section } from '../../../render/page/blocks.js';
import { el, textTable } from '../../../render/page/dom.js';
import type { PageChart } from '../../../render/page/types.js';
import type { PageData, PageOtherCheck } from '../pageTypes.js';

export function runnerPart(data: PageData): HTMLElement | null {
  const runner = data.runner;
  if (!runner) return null;
  return section(
    'runner',
    'Runner operations',
    rowsTable(runner.series),
    chartStrip(data.charts, 'runner'),
    notes(runner.notes),
  );
}

export function historyPart(data: PageData): HTMLElement | null {
  const history = data.history;
  if (!history) return null;
  return section(
    'history',
    `Nightly history: ${history.model}`,
    el('p', {}, history.drift),
    chartStrip(data.charts, 'history'),
    rowsTable(history.nights),
  );
}

export function otherCheckPart(part: PageOtherCheck, charts: readonly PageChart[]): HTMLElement {
  return section(
    `check-${part.check.replace(/[^a-z0-9-]/gi, '')}`,
    part.check,
    el('p', { class: 'muted' }, 'Its section of summary.md:'),
    el('div', { class: 'text' }, part.markdown),
    chartStrip(charts, part.check),
  );
}

export function provenancePart(data: PageData): HTMLElement {
  return section(
    'provenance',
    'Measurement provenance',
    textTable(['', ''], data.provenance.rows),
    data.provenance.warnings.length > 0 ? el('h3', {}, 'Warnings') : null,
    notes(data.provenance.warnings),
  );
}

/** The churn part: overview, the domain table with its loss test, the item table and its drill-down. */
import { chartStrip, notes, rowsTable, section } from '../../../render/page/blocks.js';
import { el, fill, on, textTable } from '../../../render/page/dom.js';
import { num, pct, pValue, signed } from '../../../render/page/format.js';
import type { PagePart } from '../../../render/page/part.js';
import { go, onRoute } from '../../../render/page/route.js';
import { type Column, PagedTable } from '../../../render/page/table.js';
import type { PageChart } from '../../../render/page/types.js';
import { itemDetail } from './item.js';
import type { ChurnPage, ChurnPageItem } from './types.js';

function domainTable(part: ChurnPage): HTMLElement | null {
  if (part.domains.length === 0) return null;
  const flag = (d: ChurnPage['domains'][number]) =>
    [d.reversal ? 'reversal' : '', d.loss ? 'loss' : '', d.gain ? 'gain' : '']
      .filter(Boolean)
      .join(', ') || '–';
  return textTable(
    [
      'domain',
      'items',
      ...part.models.map((m) => `accuracy ${m}`),
      'Δ',
      'improved',
      'deteriorated',
      'net',
      'loss test p',
      'adjusted',
      'finding',
    ],
    part.domains.map((d) => [
      d.domain,
      d.items,
      ...part.models.map((_, i) => pct(d.accuracy[i] ?? null)),
      signed(d.delta === null ? null : d.delta * 100, 1) + ' pts',
      d.improved,
      d.deteriorated,
      d.net,
      pValue(d.pLoss),
      pValue(d.adjustedLoss),
      flag(d),
    ]),
  );
}

function itemColumns(part: ChurnPage): Column<ChurnPageItem>[] {
  const columns: Column<ChurnPageItem>[] = [
    {
      label: 'item',
      cell: (r) => el('a', { href: `#item=${encodeURIComponent(r.id)}` }, r.id),
      key: (r) => r.id,
    },
    { label: 'domain', cell: (r) => r.domain, key: (r) => r.domain },
    ...part.models.map((m, i) => ({
      label: `p ${m}`,
      cell: (r: ChurnPageItem) => num(r.p[i] ?? null, 2),
      key: (r: ChurnPageItem) => r.p[i] ?? null,
      numeric: true,
    })),
    { label: 'Δp', cell: (r) => signed(r.delta), key: (r) => r.delta, numeric: true },
    { label: 'class', cell: (r) => r.cls, key: (r) => r.cls },
  ];
  if (part.estimator !== 'logprobs') {
    columns.push({ label: 'q', cell: (r) => pValue(r.q), key: (r) => r.q, numeric: true });
  }
  return columns;
}

interface Filters {
  search: HTMLInputElement;
  domain: HTMLSelectElement;
  cls: HTMLSelectElement;
  q: HTMLInputElement;
}

function filterControls(
  part: ChurnPage,
  apply: () => void,
): { element: HTMLElement; filters: Filters } {
  const options = (values: readonly string[]) => [
    el('option', { value: '' }, 'all'),
    ...values.map((v) => el('option', { value: v }, v)),
  ];
  const filters: Filters = {
    search: el('input', {
      type: 'search',
      placeholder: 'id, text or answer',
      'aria-label': 'search items',
    }),
    domain: el(
      'select',
      { 'aria-label': 'domain' },
      ...options([...new Set(part.items.map((i) => i.domain))].sort()),
    ),
    cls: el(
      'select',
      { 'aria-label': 'class' },
      ...options([...new Set(part.items.map((i) => i.cls))].sort()),
    ),
    q: el('input', {
      type: 'number',
      min: 0,
      max: 1,
      step: 0.01,
      placeholder: 'any',
      'aria-label': 'q at most',
    }),
  };
  for (const control of Object.values(filters)) on(control, 'input', apply);
  const label = (text: string, control: HTMLElement) => el('label', {}, text, control);
  return {
    filters,
    element: el(
      'div',
      { class: 'controls' },
      label('search', filters.search),
      label('domain', filters.domain),
      label('class', filters.cls),
      label('q at most', filters.q),
    ),
  };
}

function searchText(item: ChurnPageItem): string {
  const ask = item.ask;
  const text = !ask
    ? ''
    : ask.kind === 'choice'
      ? [ask.question, ...ask.choices].join(' ')
      : [ask.prompt, ask.expected ?? '', ask.grader.name].join(' ');
  const answers = item.answers.flatMap((a) => [
    ...(a?.counts.map((c) => c[0]) ?? []),
    ...(a?.examples?.right ?? []),
    ...(a?.examples?.wrong ?? []),
  ]);
  return `${item.id} ${text} ${answers.join(' ')}`.toLowerCase();
}

function matches(filters: Filters, item: ChurnPageItem, text: string): boolean {
  const search = filters.search.value.trim().toLowerCase();
  if (search && !text.includes(search)) return false;
  if (filters.domain.value && item.domain !== filters.domain.value) return false;
  if (filters.cls.value && item.cls !== filters.cls.value) return false;
  const q = filters.q.value === '' ? null : Number(filters.q.value);
  return q === null || (item.q !== null && item.q <= q);
}

function itemTable(part: ChurnPage, detail: HTMLElement): HTMLElement {
  const table = new PagedTable(itemColumns(part), {
    pageSize: 50,
    rowKey: (r) => r.id,
    onSelect: (r) => go('item', r.id),
    label: 'churn items',
  });
  // The search text of an item is built when first searched, not at load.
  let texts: string[] | null = null;
  const { element, filters } = filterControls(part, () => {
    texts ??= part.items.map(searchText);
    const all = texts;
    table.setRows(part.items.filter((item, i) => matches(filters, item, all[i] as string)));
  });
  table.setRows(part.items);
  const byId = new Map(part.items.map((item) => [item.id, item]));
  onRoute('item', (id) => {
    const item = byId.get(id);
    if (!item) return false;
    fill(detail, itemDetail(part, item));
    table.showRow(id);
    detail.scrollIntoView({ block: 'start' });
    return true;
  });
  return el('div', {}, element, detail, table.element);
}

function churnPart(part: ChurnPage, charts: readonly PageChart[]): HTMLElement {
  const flagged = part.items.filter((i) => i.cls === 'improved' || i.cls === 'deteriorated').length;
  return section(
    'churn',
    'Churn: which items changed',
    el(
      'p',
      {},
      `${part.items.length} items; gate method: ${part.method}${part.samples ? `; K = ${part.samples} samples per item and model` : ''}. ${flagged} items flagged.`,
    ),
    rowsTable(part.overview),
    el('h3', {}, 'Domains'),
    part.domainTest ? el('p', { class: 'muted' }, part.domainTest) : null,
    domainTable(part),
    chartStrip(charts, 'churn'),
    el('h3', {}, 'Items'),
    el(
      'p',
      { class: 'muted' },
      'Click an item (or link to #item=<id>) to see its question and every model’s answers.',
    ),
    itemTable(part, el('div', { id: 'churn-detail', 'aria-live': 'polite' })),
    notes(part.notes),
  );
}

export const churnPagePart: PagePart<ChurnPage> = {
  name: 'churn',
  links: ['item'],
  render: churnPart,
};

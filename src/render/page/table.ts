/**
 * A table that shows one page of its rows at a time: a run of thousands of items renders as
 * fast as one of fifty. Sorting is by column (click its header); filtering is the caller's,
 * which hands the rows it keeps to `setRows`.
 */
import { type Child, el, fill, on } from './dom.js';

export interface Column<T> {
  label: string;
  cell(row: T): Child;
  /** The sort key; absent: the column does not sort. Nulls sort last. */
  key?(row: T): number | string | null;
  numeric?: boolean;
}

export interface PagedTableOptions<T> {
  pageSize: number;
  rowKey(row: T): string;
  /** Called when a row is clicked (or chosen with Enter). */
  onSelect?(row: T): void;
  label: string;
}

function compare(a: number | string | null, b: number | string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true });
}

export class PagedTable<T> {
  readonly element: HTMLElement;
  private rows: T[] = [];
  private page = 0;
  private sortBy = -1;
  private descending = false;
  private selected: string | null = null;
  private readonly body = el('tbody');
  private readonly head = el('thead');
  private readonly pager = el('div', { class: 'pager' });

  constructor(
    private readonly columns: readonly Column<T>[],
    private readonly options: PagedTableOptions<T>,
  ) {
    this.element = el(
      'div',
      {},
      el('table', { 'aria-label': options.label }, this.head, this.body),
      this.pager,
    );
    this.renderHead();
  }

  setRows(rows: readonly T[]): void {
    this.rows = [...rows];
    this.sortRows();
    this.page = 0;
    this.render();
  }

  get rowCount(): number {
    return this.rows.length;
  }

  /** Shows the page that holds the row and marks it; false when no row has that key. */
  showRow(key: string): boolean {
    const index = this.rows.findIndex((row) => this.options.rowKey(row) === key);
    this.selected = key;
    if (index >= 0) this.page = Math.floor(index / this.options.pageSize);
    this.render();
    return index >= 0;
  }

  private sortRows(): void {
    const column = this.columns[this.sortBy];
    if (!column?.key) return;
    const key = column.key;
    const sign = this.descending ? -1 : 1;
    this.rows.sort((a, b) => {
      const ka = key(a);
      const kb = key(b);
      // Missing values last whichever way the column sorts.
      if (ka === null || kb === null) return compare(ka, kb);
      return sign * compare(ka, kb);
    });
  }

  private renderHead(): void {
    const cells = this.columns.map((column, i) => {
      const mark = i === this.sortBy ? (this.descending ? ' ▼' : ' ▲') : '';
      const label = column.key
        ? on(el('button', { class: 'sort', type: 'button' }, column.label + mark), 'click', () =>
            this.sortOn(i),
          )
        : column.label;
      const sort = i === this.sortBy ? (this.descending ? 'descending' : 'ascending') : undefined;
      return el(
        'th',
        { scope: 'col', class: column.numeric ? 'num' : undefined, 'aria-sort': sort },
        label,
      );
    });
    fill(this.head, el('tr', {}, ...cells));
  }

  private sortOn(index: number): void {
    this.descending = this.sortBy === index ? !this.descending : false;
    this.sortBy = index;
    this.sortRows();
    this.page = 0;
    this.renderHead();
    this.render();
  }

  private render(): void {
    const { pageSize } = this.options;
    const pages = Math.max(1, Math.ceil(this.rows.length / pageSize));
    this.page = Math.min(this.page, pages - 1);
    const first = this.page * pageSize;
    const shown = this.rows.slice(first, first + pageSize);
    fill(this.body, ...shown.map((row) => this.renderRow(row)));
    const go = (page: number) => () => {
      this.page = page;
      this.render();
    };
    const button = (label: string, page: number, disabled: boolean) => {
      const b = el('button', { type: 'button' }, label);
      b.disabled = disabled;
      return on(b, 'click', go(page));
    };
    fill(
      this.pager,
      button('‹ previous', this.page - 1, this.page === 0),
      el(
        'span',
        { class: 'muted' },
        this.rows.length === 0
          ? 'no rows'
          : `rows ${first + 1}–${first + shown.length} of ${this.rows.length}, page ${this.page + 1} of ${pages}`,
      ),
      button('next ›', this.page + 1, this.page >= pages - 1),
    );
  }

  private renderRow(row: T): HTMLTableRowElement {
    const key = this.options.rowKey(row);
    const select = this.options.onSelect;
    const classes = [select ? 'clickable' : '', key === this.selected ? 'selected' : '']
      .filter(Boolean)
      .join(' ');
    const tr = el(
      'tr',
      { class: classes || undefined, tabindex: select ? 0 : undefined, 'data-key': key },
      ...this.columns.map((c) => el('td', { class: c.numeric ? 'num' : undefined }, c.cell(row))),
    );
    if (select) {
      on(tr, 'click', () => select(row));
      on(tr, 'keydown', (e) => {
        if (e.key === 'Enter') select(row);
      });
    }
    return tr;
  }
}

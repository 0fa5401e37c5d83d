/** A part of the page that renders one check's data: the page's script picks it by name. */
import type { PageChart } from './types.js';

export interface PagePart<Data> {
  /** The check whose data it renders (the `check` field of that data). */
  name: string;
  /**
   * The kinds of deep link it opens (`item` for `#item=<id>`), registered with `onRoute` when
   * it renders. A link of a kind no part declares is ignored; one of a declared kind that no
   * rendered part can open says so.
   */
  links: readonly string[];
  render(data: Data, charts: readonly PageChart[]): HTMLElement;
}

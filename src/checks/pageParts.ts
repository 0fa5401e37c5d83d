/**
 * Every check's part of report.html in the browser, one line each (registry.ts lists the
 * checks themselves; a check's `page` builds the data its part here renders). The page's
 * script loops over this list and never names a check. Browser code: type-checked by the
 * page script's tsconfig, bundled into the page.
 */
import type { PagePart } from '../render/page/part.js';
import { churnPagePart } from './churn/page/part.js';
import { dragonPagePart } from './dragon/page/part.js';
import { personasPagePart } from './personas/page/part.js';
import { speedPagePart } from './speed/page/part.js';

/** A part behind one erased type: the page hands it the data whose `check` is its name. */
function erasePart<Data>(part: PagePart<Data>): PagePart<unknown> {
  return { ...part, render: (data, charts) => part.render(data as Data, charts) };
}

const PARTS: readonly PagePart<unknown>[] = [
  erasePart(churnPagePart),
  erasePart(dragonPagePart),
  erasePart(personasPagePart),
  erasePart(speedPagePart),
];

/** The part that renders a check's data; null for a check with no part of its own. */
export function pagePartOf(check: string): PagePart<unknown> | null {
  return PARTS.find((part) => part.name === check) ?? null;
}

/** The kinds of deep link the parts open, whichever checks a report holds. */
export function pageLinkKinds(): string[] {
  return PARTS.flatMap((part) => part.links);
}

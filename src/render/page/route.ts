/**
 * Deep links: `#<kind>=<value>` opens that drill-down (`#item=<id>` an item). The parts of the
 * page declare the kinds, and each registers the opener of its kind when it renders; a link
 * the page cannot follow says so.
 */
import { el, fill } from './dom.js';

let kinds: ReadonlySet<string> = new Set();

interface Route {
  kind: string;
  value: string;
}

function parseHash(hash: string): Route | null {
  const match = /^#?([a-z]+)=(.*)$/s.exec(hash);
  if (!match) return null;
  const kind = match[1] as string;
  if (!kinds.has(kind)) return null;
  try {
    return { kind, value: decodeURIComponent(match[2] as string) };
  } catch {
    return null;
  }
}

function linkTo(kind: string, value: string | number): string {
  return `#${kind}=${encodeURIComponent(String(value))}`;
}

/** Opens the drill-down; false when the report has no such item, game or assistant. */
type Opener = (value: string) => boolean;

const openers = new Map<string, Opener>();

export function onRoute(kind: string, open: Opener): void {
  openers.set(kind, open);
}

/** Sets the link; the drill-down opens from the hash change, as for a link followed. */
export function go(kind: string, value: string | number): void {
  const hash = linkTo(kind, value);
  if (location.hash === hash) follow(hash);
  else location.hash = hash;
}

// Made when routing starts, so that loading the module touches no document.
let notice: HTMLElement | null = null;

function follow(hash: string): void {
  if (!notice) return;
  const route = parseHash(hash);
  notice.hidden = true;
  if (!route) return;
  const open = openers.get(route.kind);
  if (open?.(route.value)) return;
  fill(notice, `This report has no ${route.kind} "${route.value}" to show.`);
  notice.hidden = false;
}

/**
 * The notice element (placed by the page), then the link of the address and every later one,
 * for links of the given kinds.
 */
export function startRouting(linkKinds: readonly string[]): HTMLElement {
  kinds = new Set(linkKinds);
  notice = el('p', { class: 'note', role: 'status', id: 'route-notice' });
  notice.hidden = true;
  addEventListener('hashchange', () => follow(location.hash));
  queueMicrotask(() => follow(location.hash));
  return notice;
}

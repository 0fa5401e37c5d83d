/**
 * Deep links: `#item=<id>`, `#game=<seed>`, `#assistant=<name>` open that drill-down. Each
 * part of the page registers the kind it opens; a link the page cannot follow says so.
 */
import { el, fill } from './dom.js';

export type RouteKind = 'item' | 'game' | 'assistant';

const KINDS: readonly RouteKind[] = ['item', 'game', 'assistant'];

export interface Route {
  kind: RouteKind;
  value: string;
}

export function parseHash(hash: string): Route | null {
  const match = /^#?([a-z]+)=(.*)$/s.exec(hash);
  if (!match) return null;
  const kind = match[1] as RouteKind;
  if (!KINDS.includes(kind)) return null;
  try {
    return { kind, value: decodeURIComponent(match[2] as string) };
  } catch {
    return null;
  }
}

export function linkTo(kind: RouteKind, value: string | number): string {
  return `#${kind}=${encodeURIComponent(String(value))}`;
}

/** Opens the drill-down; false when the report has no such item, game or assistant. */
type Opener = (value: string) => boolean;

const openers = new Map<RouteKind, Opener>();

export function onRoute(kind: RouteKind, open: Opener): void {
  openers.set(kind, open);
}

/** Sets the link; the drill-down opens from the hash change, as for a link followed. */
export function go(kind: RouteKind, value: string | number): void {
  const hash = linkTo(kind, value);
  if (location.hash === hash) follow(hash);
  else location.hash = hash;
}

const notice = el('p', { class: 'note', role: 'status', id: 'route-notice' });

function follow(hash: string): void {
  const route = parseHash(hash);
  notice.hidden = true;
  if (!route) return;
  const open = openers.get(route.kind);
  if (open?.(route.value)) return;
  fill(notice, `This report has no ${route.kind} "${route.value}" to show.`);
  notice.hidden = false;
}

/** The notice element (placed by the page), then the link of the address and every later one. */
export function startRouting(): HTMLElement {
  notice.hidden = true;
  addEventListener('hashchange', () => follow(location.hash));
  queueMicrotask(() => follow(location.hash));
  return notice;
}

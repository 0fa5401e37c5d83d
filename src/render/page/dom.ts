/**
 * Building the page without markup: every element is created by name, every text from the
 * data becomes a text node, every attribute is checked against a short list. Nothing here
 * parses HTML, so a model answer holding `<script>` shows as those characters.
 */

export type Child = Node | string | number | null | undefined | false;

/**
 * Characters that act instead of printing (controls, bidi overrides and isolates, invisible
 * format characters, lone surrogates) shown as a visible \uXXXX. The data has been through the
 * same on the way in; this is the second line.
 */
const UNSAFE = /(?![\n\t\u200c\u200d])[\p{Cc}\p{Cf}\p{Cs}\u2028\u2029]/gu;

export function safeText(text: string): string {
  return text.replace(UNSAFE, (ch) => {
    let out = '';
    for (let i = 0; i < ch.length; i++) {
      out += `\\u${ch.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
    }
    return out;
  });
}

const HTML_ATTRIBUTES = new Set([
  'class',
  'id',
  'title',
  'colspan',
  'scope',
  'role',
  'type',
  'value',
  'placeholder',
  'min',
  'max',
  'step',
  'for',
  'tabindex',
  'alt',
  'src',
  'href',
  'width',
  'height',
  'open',
]);

/** An attribute the page may set: a fixed name, a safe value for the two that load or navigate. */
function checkedAttribute(name: string, value: string): string {
  const known = HTML_ATTRIBUTES.has(name) || /^(aria|data)-[a-z-]+$/.test(name);
  if (!known) throw new Error(`attribute ${name} is not one the page sets`);
  if (name === 'href' && !value.startsWith('#')) throw new Error('links stay within the page');
  if (name === 'src' && !value.startsWith('data:image/svg+xml;base64,')) {
    throw new Error('images are the report’s own charts');
  }
  return value;
}

function append(parent: Node, children: readonly Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(
      typeof child === 'string' || typeof child === 'number'
        ? document.createTextNode(safeText(String(child)))
        : child,
    );
  }
}

export type Attributes = Record<string, string | number | boolean | undefined>;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    node.setAttribute(name, checkedAttribute(name, value === true ? '' : String(value)));
  }
  append(node, children);
  return node;
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const SVG_ATTRIBUTE =
  /^(x|y|x1|y1|x2|y2|cx|cy|r|rx|width|height|fill|stroke|stroke-width|stroke-dasharray|stroke-linecap|points|text-anchor|font-size|font-weight|viewBox|class|opacity|role|aria-label|transform)$/;

/** An SVG element; its attributes are numbers and names the page's code chose. */
export function svg(tag: string, attributes: Attributes = {}, ...children: Child[]): SVGElement {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (!SVG_ATTRIBUTE.test(name))
      throw new Error(`SVG attribute ${name} is not one the page sets`);
    node.setAttribute(name, String(value));
  }
  append(node, children);
  return node;
}

/** Replaces an element's content. */
export function fill(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

export function on<K extends keyof HTMLElementEventMap>(
  node: HTMLElement,
  event: K,
  handler: (e: HTMLElementEventMap[K]) => void,
): HTMLElement {
  node.addEventListener(event, handler);
  return node;
}

/** A plain table of text rows. */
export function textTable(
  columns: readonly string[],
  rows: readonly (readonly Child[])[],
): HTMLTableElement {
  // A table of label → value needs no header row: an empty one only draws a band.
  const head = columns.some((c) => c !== '')
    ? el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col' }, c))))
    : null;
  return el(
    'table',
    {},
    head,
    el('tbody', {}, ...rows.map((row) => el('tr', {}, ...row.map((cell) => el('td', {}, cell))))),
  );
}

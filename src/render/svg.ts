/** Minimal SVG building used by the charts: escaped text, attributes from objects. */
import { neutralise, neutraliseLines } from '../text/neutralise.js';
import { machineNumber } from '../text/format.js';

/** Longest label drawn: a longer one (an item id, a domain, a model name) is cut. */
const LABEL_LIMIT = 200;

/**
 * Text safe inside an element or an attribute value: control and bidi characters, and lone
 * surrogates, shown escaped (a viewer would act on them; XML 1.0 forbids them); then the two
 * noncharacters XML also forbids, which neutralising keeps, dropped.
 */
export function escapeXml(text: string): string {
  return neutraliseLines(text)
    .replace(/[\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

type Attributes = Record<string, string | number | undefined>;

export function element(
  name: string,
  attributes: Attributes,
  children: string | readonly string[] = '',
): string {
  const attrs = Object.entries(attributes)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => ` ${k}="${escapeXml(typeof v === 'number' ? round(v) : String(v))}"`)
    .join('');
  const body = typeof children === 'string' ? children : children.join('');
  return body === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${body}</${name}>`;
}

export function text(x: number, y: number, content: string, attributes: Attributes = {}): string {
  return element('text', { x, y, ...attributes }, escapeXml(neutralise(content, LABEL_LIMIT)));
}

export function svgDocument(
  width: number,
  height: number,
  title: string,
  body: readonly string[],
): string {
  return `${element(
    'svg',
    {
      xmlns: 'http://www.w3.org/2000/svg',
      width,
      height,
      viewBox: `0 0 ${width} ${height}`,
      role: 'img',
      'font-family': 'system-ui, sans-serif',
      'font-size': 12,
    },
    [element('title', {}, escapeXml(neutralise(title, LABEL_LIMIT))), ...body],
  )}\n`;
}

/**
 * Two decimals are plenty for pixels and keep the files small and stable. A non-finite
 * coordinate would make the file invalid: it is drawn at 0.
 */
function round(v: number): string {
  return machineNumber(v, 2) || '0';
}

/** A chart file written next to report.json. */
export interface Chart {
  /** File name, e.g. "reliability-baseline.svg". */
  file: string;
  title: string;
  svg: string;
}

/**
 * A `<defs>` block with diagonal white stripes over `fill` under the id `id`: a second cue
 * besides colour for a bar that must read differently in grey or to a colour-blind eye.
 */
export function hatchPattern(id: string, fill: string): string {
  return element('defs', {}, [
    element(
      'pattern',
      {
        id,
        patternUnits: 'userSpaceOnUse',
        width: 6,
        height: 6,
        patternTransform: 'rotate(45)',
      },
      [
        element('rect', { width: 6, height: 6, fill }),
        element('line', { x1: 0, y1: 0, x2: 0, y2: 6, stroke: '#ffffff', 'stroke-width': 2 }),
      ],
    ),
  ]);
}

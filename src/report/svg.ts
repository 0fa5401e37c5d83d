/** Minimal SVG building used by the charts: escaped text, attributes from objects. */

export function escapeXml(text: string): string {
  return text
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
  return element('text', { x, y, ...attributes }, escapeXml(content));
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
    [element('title', {}, escapeXml(title)), ...body],
  )}\n`;
}

/** Two decimals are plenty for pixels and keep the files small and stable. */
function round(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, '');
}

/** A chart file written next to report.json. */
export interface Chart {
  /** File name, e.g. "reliability-baseline.svg". */
  file: string;
  title: string;
  svg: string;
}

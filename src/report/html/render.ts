/**
 * report.html: one self-contained file. The data is JSON in a script element the browser
 * never runs; the style and the script are inline; nothing is fetched from anywhere. A
 * Content-Security-Policy allows exactly this page's style and script (by their SHA-256) and
 * images from data: URIs (the charts), and nothing else: no request leaves the page, and no
 * script or markup that found its way into the data could run. Pure: data and script in, HTML
 * out.
 */
import { createHash } from 'node:crypto';
import type { PageData } from './pageTypes.js';
import { PAGE_STYLE } from './style.js';

/**
 * JSON placed inside an HTML `<script type="application/json">` element. The HTML parser ends
 * a script element at the first `</script`, whatever the JSON means, and `<!--` changes how it
 * reads what follows: no `<`, `>` or `&` may appear raw. Each is written as its JSON escape
 * (`\u003c`…), which JSON.parse turns back into the same character; so are U+2028 and U+2029.
 * Outside strings JSON has none of these characters, so the value is unchanged.
 */
const ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

export function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch] as string);
}

/** The id of the element that holds the data; the page's script reads it. */
export const DATA_ELEMENT_ID = 'model-gate-data';

function sha256Source(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The policy for a page whose only style and script are these. */
export function contentSecurityPolicy(style: string, script: string): string {
  return [
    "default-src 'none'",
    `script-src ${sha256Source(script)}`,
    `style-src ${sha256Source(style)}`,
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Text of the page's own that ends its element early cannot be embedded. */
function assertEmbeddable(script: string): void {
  if (/<\/script|<!--/i.test(script)) {
    throw new Error('the page script holds "</script" or "<!--" and cannot be inlined');
  }
}

export function renderPage(data: PageData, script: string): string {
  assertEmbeddable(script);
  const title = `model-gate: ${data.verdict.status}`.replace(/[^a-z: -]/gi, '');
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(PAGE_STYLE, script)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    `<title>${title}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head>',
    '<body>',
    '<noscript><p>This report needs JavaScript to show its data; report.json and summary.md beside it hold the same numbers.</p></noscript>',
    '<div id="page"></div>',
    `<script type="application/json" id="${DATA_ELEMENT_ID}">${scriptJson(data)}</script>`,
    `<script>${script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

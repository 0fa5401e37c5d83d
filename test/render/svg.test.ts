import { describe, expect, it } from 'vitest';
import { element, escapeXml, svgDocument, text } from '../../src/render/svg.js';

describe('svg building', () => {
  it('escapes markup in text and attributes', () => {
    expect(escapeXml(`<a href="x">'&'</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&lt;/a&gt;',
    );
    expect(text(1, 2, '</text><script>alert(1)</script>')).toBe(
      '<text x="1" y="2">&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;</text>',
    );
    expect(element('rect', { title: '" onload="x' })).toBe('<rect title="&quot; onload=&quot;x"/>');
  });

  it('shows control characters, bidi controls and unpaired surrogates escaped, never raw', () => {
    expect(escapeXml('a\u0000b\u001bc\td\ne')).toBe('a\\u0000b\\u001Bc\td\ne');
    expect(escapeXml('x\ud800y\udc00z')).toBe('x\\uD800y\\uDC00z');
    expect(escapeXml('a\u202Eb')).toBe('a\\u202Eb');
    expect(escapeXml('emoji 😀')).toBe('emoji 😀');
  });

  it('rounds numbers to two decimals, without trailing zeros, and never writes NaN', () => {
    expect(
      element('circle', { cx: 10, cy: 12.345, r: 0.5, a: 100.004, b: -0.001, c: Number.NaN }),
    ).toBe('<circle cx="10" cy="12.35" r="0.5" a="100" b="0" c="0"/>');
    expect(element('g', { skipped: undefined }, ['<a/>', '<b/>'])).toBe('<g><a/><b/></g>');
  });

  it('writes a whole document with its title and viewBox', () => {
    const svg = svgDocument(200, 100, 'Churn <by> domain', [
      element('rect', { width: 1, height: 1 }),
    ]);
    expect(svg).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100" role="img" font-family="system-ui, sans-serif" font-size="12"><title>Churn &lt;by&gt; domain</title><rect width="1" height="1"/></svg>\n',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { marked } from 'marked';
import {
  codeSpan,
  details,
  escapeText,
  escapeTextWithCode,
  link,
  relativeLink,
  table,
} from '../../src/render/markdown.js';
import { interval, num, percent, points } from '../../src/text/format.js';
import { HOSTILE } from '../report/fixtures.js';
import {
  allTokens,
  liveReferences,
  rawHtml,
  tableLinePipes,
  tables,
  visibleText,
} from '../report/gfm.js';

const INVISIBLE = /[\u200b\u200d]/g;

describe('escapeText with hostile strings', () => {
  for (const hostile of HOSTILE) {
    it(`keeps ${JSON.stringify(hostile)} as inert visible text`, () => {
      const escaped = escapeText(hostile);
      const paragraph = `Answer: ${escaped}`;
      expect(rawHtml(paragraph)).toEqual([]);
      const kinds = new Set(allTokens(paragraph).map((t) => t.type));
      for (const active of ['link', 'strong', 'em', 'codespan', 'heading', 'list', 'del', 'html']) {
        expect(kinds.has(active)).toBe(false);
      }
      const visible = visibleText(paragraph);
      expect(liveReferences(visible)).toEqual([]);
      // Only invisible characters were added, and newlines became spaces: nothing was lost.
      expect(visible.replace(INVISIBLE, '').trim()).toBe(
        `Answer: ${hostile.replace(/\r\n|\n/g, ' ')}`,
      );
    });
  }
});

describe('escapeText keeps ordinary text copyable', () => {
  it('adds nothing invisible to a model tag or a sentence with a colon', () => {
    expect(escapeText('qwen2.5:7b')).toBe('qwen2\\.5:7b');
    expect(escapeText('law: 7 items')).toBe('law: 7 items');
    expect(escapeText('see :smile: now')).toBe('see :\u200bsmile: now');
    expect(escapeText('http://x')).toBe('http:\u200b//x');
  });
});

describe('codeSpan', () => {
  it('cannot be closed by backticks in the text', () => {
    for (const text of ['a`b', '``', '`start', 'end`', '```fence```', '']) {
      const tokens = allTokens(`x ${codeSpan(text)} y`);
      const spans = tokens.filter((t) => t.type === 'codespan');
      expect(spans).toHaveLength(1);
    }
    expect(codeSpan('a`b')).toBe('``a`b``');
    expect(codeSpan('`x')).toBe('`` `x ``');
  });

  it('keeps a table row intact when the text holds pipes and newlines', () => {
    const md = table(['id', 'text'], [['1', codeSpan('a | b\nc')]]);
    expect(tables(md)[0]?.rowWidths).toEqual([2]);
    expect(tableLinePipes(md)).toEqual([[3, 3, 3]]);
  });
});

describe('table', () => {
  it('keeps the column count whatever the cells hold', () => {
    const rows = HOSTILE.map((h, i) => [String(i), escapeText(h), codeSpan(h)]);
    // Unescaped pipes and newlines in a cell must not add columns or rows either.
    rows.push(['raw', 'a | b', 'c\nd | e']);
    rows.push(['escaped twice', '\\| already', '\\\\| even backslashes']);
    const md = table(['#', 'escaped', 'code'], rows);
    const [parsed] = tables(md);
    expect(parsed?.columns).toBe(3);
    expect(parsed?.rowWidths).toEqual(rows.map(() => 3));
    expect(tableLinePipes(md)).toEqual([Array(rows.length + 2).fill(4)]);
    // Each hostile string stays whole in its own cell.
    HOSTILE.forEach((h, i) => {
      const flat = h.replace(/\r\n|\n/g, ' ');
      expect(
        visibleText(parsed?.cells[i]?.[1] ?? '')
          .replace(INVISIBLE, '')
          .trim(),
      ).toBe(flat);
    });
    expect(rawHtml(md)).toEqual([]);
    expect(liveReferences(visibleText(md))).toEqual([]);
  });

  it('pads short rows and cuts long ones to the header width', () => {
    const md = table(['a', 'b'], [['1'], ['1', '2', '3']]);
    expect(tables(md)[0]?.rowWidths).toEqual([2, 2]);
  });
});

describe('links', () => {
  it('links only http(s) URLs, with an escaped label', () => {
    expect(link('run', 'https://github.com/o/r/actions/runs/1')).toBe(
      '[run](https://github.com/o/r/actions/runs/1)',
    );
    expect(link('x', 'javascript:alert(1)')).toBe('x');
    expect(link('[a](b)', 'not a url')).toBe('\\[a\\]\\(b\\)');
    const md = link('y', 'https://e.example/a)b(c d');
    const links = allTokens(md).filter((t) => t.type === 'link');
    expect(links).toHaveLength(1);
    expect(links[0]).toMatchObject({ href: 'https://e.example/a%29b%28c%20d' });
  });

  it('encodes relative file links', () => {
    expect(relativeLink('chart', 'reliability baseline.svg')).toBe(
      '[chart](reliability%20baseline.svg)',
    );
  });
});

describe('details', () => {
  it('escapes the summary line as HTML text', () => {
    expect(details('a <b> & c', 'body')).toBe(
      '<details><summary>a &lt;b&gt; &amp; c</summary>\n\nbody\n\n</details>',
    );
  });

  it('shows a model tag as written: no markdown backslash escapes in raw HTML', () => {
    // GitHub reads no markdown inside <summary>: "demo\-base" would show its backslash.
    const html = marked.parse(details('baseline demo-base:1b (K = 10)', 'body'), { async: false });
    expect(html).toContain('<summary>baseline demo-base:1b (K = 10)</summary>');
  });

  it('keeps mentions and issue references inert in the summary line', () => {
    const md = details('@octocat closes #12', 'body');
    expect(md).toContain('@\u200doctocat closes #\u200d12');
    expect(liveReferences(visibleText(md))).toEqual([]);
  });
});

describe('numbers', () => {
  it('formats shares, signed points, fixed digits and intervals; dashes for missing values', () => {
    expect(percent(0.1234)).toBe('12.3%');
    expect(points(0.028)).toBe('+2.8 pts');
    expect(points(-0.0349)).toBe('−3.5 pts');
    // −0.0004 rounds to 0.0 at one digit: no direction is claimed.
    expect(points(-0.0004)).toBe('±0.0 pts');
    expect(num(0.06149)).toBe('0.061');
    // −0.00003 rounds to zero at four digits: no "-0.0000".
    expect(num(-0.00003, 4)).toBe('0.0000');
    expect(num(-0.00006, 4)).toBe('\u22120.0001');
    expect(interval(0.412, 0.5333)).toBe('[0.412, 0.533]');
    for (const missing of [null, undefined, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect([percent(missing), points(missing), num(missing), interval(missing, 1)]).toEqual([
        '–',
        '–',
        '–',
        '–',
      ]);
    }
  });
});

describe('the inspection itself', () => {
  it('sees raw HTML, live mentions and references, and broken tables in unescaped text', () => {
    expect(rawHtml(HOSTILE[0])).not.toEqual([]);
    expect(rawHtml(`x ${HOSTILE[5]}`)).not.toEqual([]);
    // @octocat, #12, org/repo#3, the bare https:// URL and www.: five live references
    // (the markdown link's URL sits in its href, caught as a link token below).
    const raw = `${HOSTILE[2]} ${HOSTILE[9]} ${HOSTILE[6]}`;
    expect(liveReferences(visibleText(raw))).toHaveLength(5);
    expect(allTokens(raw).filter((t) => t.type === 'link').length).toBeGreaterThan(0);
    const broken = `| a | b |\n| - | - |\n| 1 | ${HOSTILE[3]} |`;
    expect(tableLinePipes(broken)).toEqual([[3, 3, 5]]);
  });
});

describe('escapeTextWithCode', () => {
  it('shows the literals as code spans and escapes the rest', () => {
    expect(escapeTextWithCode('qwen3:8b: accuracy fell', ['qwen3:8b'])).toBe(
      '`qwen3:8b`: accuracy fell',
    );
    // Without the code span the tag gets a zero-width space after its colon.
    expect(escapeText('qwen3:8b: accuracy fell')).toContain('\u200b');
    expect(escapeTextWithCode('a:1b vs a:1b-q4 and a:1b.', ['a:1b', 'a:1b-q4'])).toBe(
      '`a:1b` vs `a:1b-q4` and `a:1b`\\.',
    );
    expect(escapeTextWithCode('@x *y*', [])).toBe(escapeText('@x *y*'));
  });

  it('keeps a hostile tag inert inside its code span', () => {
    const md = escapeTextWithCode('model <b>@octocat</b>|x: failed', ['<b>@octocat</b>|x']);
    expect(rawHtml(md)).toEqual([]);
    expect(liveReferences(visibleText(md))).toEqual([]);
  });
});

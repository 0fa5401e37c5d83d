/**
 * report.html as a file: one document that references nothing outside itself, whose data
 * cannot end its script element, whose policy admits exactly its own style and script, and
 * whose script builds the page without parsing markup. (What it shows is tested in a browser:
 * test/browser/.)
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { pageData } from '../../../src/report/html/data.js';
import { pageScript } from '../../../src/report/html/pageScript.js';
import { DATA_ELEMENT_ID, renderPage, scriptJson } from '../../../src/report/html/render.js';
import { PAGE_STYLE } from '../../../src/report/html/style.js';
import { constructedReport, HOSTILE } from '../fixtures.js';

const CLIENT = 'src/report/html/client';

/** The page script's sources: every file its tsconfig checks as browser code, from the root. */
function browserSources(): { file: string; text: string }[] {
  const { config } = ts.readConfigFile(path.join(CLIENT, 'tsconfig.json'), ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, path.resolve(CLIENT));
  return parsed.fileNames.map((name) => ({
    file: path.relative(process.cwd(), name).split(path.sep).join('/'),
    text: readFileSync(name, 'utf8'),
  }));
}

/** Each import and re-export of a source: the file it names (relative, `.js` as `.ts`) and whether only types. */
function importsOf(file: string, text: string): { target: string; typeOnly: boolean }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  const found: { target: string; typeOnly: boolean }[] = [];
  for (const statement of source.statements) {
    const declaration =
      ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement) ? statement : null;
    const specifier = declaration?.moduleSpecifier;
    if (!declaration || !specifier || !ts.isStringLiteral(specifier)) continue;
    const typeOnly = ts.isImportDeclaration(declaration)
      ? declaration.importClause?.isTypeOnly === true
      : declaration.isTypeOnly;
    const target = specifier.text.startsWith('.')
      ? path.posix.join(path.posix.dirname(file), specifier.text).replace(/\.js$/, '.ts')
      : specifier.text;
    found.push({ target, typeOnly });
  }
  return found;
}

describe('scriptJson', () => {
  it('writes no character that could end or comment out a script element, and parses back equal', () => {
    const value = {
      a: '</script><script>alert(1)</script>',
      b: '<!-- x -->',
      c: 'a & b > c',
      d: '\u2028\u2029',
    };
    const text = scriptJson(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('renderPage', () => {
  const script = pageScript();
  const html = renderPage(pageData(constructedReport()), script);

  it('holds its data in one JSON element and its script in one other, nothing else executable', () => {
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(html).toContain(`<script type="application/json" id="${DATA_ELEMENT_ID}">`);
    const data = new RegExp(`id="${DATA_ELEMENT_ID}">([^<]*)</script>`).exec(html)?.[1] ?? '';
    expect(JSON.parse(data).format).toBe('model-gate.page/1');
  });

  it('admits exactly its own style and script by their SHA-256, and loads nothing', () => {
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    const hash = (text: string) => createHash('sha256').update(text).digest('base64');
    expect(csp.split('; ')).toEqual([
      "default-src 'none'",
      `script-src 'sha256-${hash(script)}'`,
      `style-src 'sha256-${hash(PAGE_STYLE)}'`,
      'img-src data:',
      "base-uri 'none'",
      "form-action 'none'",
    ]);
    expect(csp).not.toContain('unsafe');
    expect(html).toContain(`<script>${script}</script>`);
    expect(html).toContain(`<style>${PAGE_STYLE}</style>`);
  });

  it('references nothing outside itself: no src, stylesheet, url(), import or request', () => {
    const markup = html
      .replace(/<script[\s\S]*?<\/script>/g, '')
      .replace(/<style>[\s\S]*?<\/style>/, '');
    expect(markup).not.toMatch(/\b(src|href|action|srcset)=/i);
    expect(PAGE_STYLE).not.toMatch(/url\(|@import/i);
    expect(script).not.toMatch(
      /\bfetch\(|XMLHttpRequest|WebSocket|EventSource|sendBeacon|\bimport\(|importScripts/,
    );
  });

  it('puts hostile text into the data only, with control and bidi characters shown as escapes', () => {
    const hostile = renderPage(
      pageData({ ...constructedReport(), createdAt: `\u202E${HOSTILE[0]}` }),
      script,
    );
    expect(hostile.match(/<script/g)).toHaveLength(2);
    expect(hostile).not.toContain('\u202E');
    expect(hostile).toContain('\\\\u202E\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
  });

  it('refuses a script that would end its own element', () => {
    expect(() => renderPage(pageData(constructedReport()), 'var a = "</script>";')).toThrow(
      /cannot be inlined/,
    );
  });
});

describe('the page script', () => {
  const sources = browserSources();
  const browserFiles = new Set(sources.map((s) => s.file));

  it("is the entry, the DOM helpers, the checks' registry and every check's part", () => {
    expect([...browserFiles]).toEqual(
      expect.arrayContaining([
        `${CLIENT}/main.ts`,
        'src/render/page/dom.ts',
        'src/checks/pageParts.ts',
        ...readdirSync('src/checks', { withFileTypes: true })
          .filter((entry) => entry.isDirectory() && existsSync(`src/checks/${entry.name}/page`))
          .map((entry) => `src/checks/${entry.name}/page/part.ts`),
      ]),
    );
    expect(sources.filter((s) => s.file.startsWith('src/checks/')).length).toBeGreaterThan(3);
  });

  it('never parses markup or code, and talks to no server', () => {
    const forbidden =
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function|setAttribute\(\s*['"]on|\bfetch\(|XMLHttpRequest|WebSocket|sendBeacon|\.src\s*=/;
    for (const { file, text } of sources)
      expect(`${file}: ${forbidden.exec(text)?.[0] ?? ''}`).toBe(`${file}: `);
  });

  it('imports only other browser modules and type-only page data', () => {
    const outside = sources.flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter(({ target, typeOnly }) => !typeOnly && !browserFiles.has(target))
        .map(({ target }) => `${file} imports ${target}`),
    );
    expect(outside).toEqual([]);
    // The rule sees a value import that leaves the browser code, split over lines or not.
    const sample =
      "import {\n  a,\n} from '../../text/format.js';\nimport type { B } from './b.js';";
    expect(importsOf('src/render/page/x.ts', sample)).toEqual([
      { target: 'src/text/format.ts', typeOnly: false },
      { target: 'src/render/page/b.ts', typeOnly: true },
    ]);
  });
});

/**
 * A check is one folder: outside `src/checks/` (and the simulator's scripted behaviours, one
 * per check) no source names a built-in check in code — no identifier such as `churnPart`, no
 * string that is a check's name or one of its keys (`'dragon'`, `'churn.samples'`), no import
 * of a check's folder. Comments and prose are not code: a help sentence may mention a check.
 * Whatever a file needs of a check comes from the list of checks it is given.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { BUILT_IN_CHECK_NAMES } from '../../src/checks/builtIn.js';
import { parseSource, sourceFiles } from './sourceGraph.js';

const NAMES = BUILT_IN_CHECK_NAMES.join('|');
/** A string that is a check's name, a key under it ("churn.samples") or an id built on it. */
const NAMING_STRING = new RegExp(`^(${NAMES})([.\\-_:/]|$)`);
const NAMING_IDENTIFIER = new RegExp(`(${NAMES})`, 'i');
const CHECK_FOLDER = new RegExp(`(^|/)checks/(${NAMES})(/|$)`);

/** Where a source names a check in code, as `line: text`. */
function namings(source: ts.SourceFile): string[] {
  const found: string[] = [];
  const at = (node: ts.Node, what: string) => {
    const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
    found.push(`${line + 1}: ${what}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && NAMING_IDENTIFIER.test(node.text)) at(node, node.text);
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) {
      const text = node.text;
      if (NAMING_STRING.test(text) || CHECK_FOLDER.test(text)) at(node, JSON.stringify(text));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Files a check's name may appear in: the checks' own folders, and one behaviour per check. */
function exempt(file: string): boolean {
  return file.startsWith('checks/') || file.startsWith('simulator/behaviours/');
}

describe('a check is one folder', () => {
  const naming = new Map(
    sourceFiles()
      .filter((file) => !exempt(file))
      .map((file) => [file, namings(parseSource(file))] as const)
      .filter(([, found]) => found.length > 0),
  );

  it('no source outside the checks names a built-in check in code', () => {
    const unexpected = [...naming].map(([file, found]) => `${file}: ${found.join('; ')}`);
    expect(unexpected).toEqual([]);
  });

  it('finds a check named in code, and not one named in a comment or a sentence', () => {
    const text = [
      '// dragon in a comment',
      "const help = 'a sentence about churn and personas';",
      "const key = 'churn.samples';",
      'const dragonPart = 1;',
    ].join('\n');
    expect(namings(parseSource('example.ts', text))).toEqual([
      '3: "churn.samples"',
      '4: dragonPart',
    ]);
  });
});

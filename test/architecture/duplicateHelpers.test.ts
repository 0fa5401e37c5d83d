/**
 * No helper is written twice: two functions of `src/` with the same name and the same body
 * (whitespace aside) are one helper copied, which drifts apart the day one copy is fixed. The
 * second one imports the first instead.
 */
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { parseSource, sourceFiles } from './sourceGraph.js';

/**
 * Each helper of a source — a function declared at the top of the module, or a constant there
 * holding one — as its name and its parameters and body with whitespace collapsed. A closure
 * inside a function is that function's own business.
 */
function functionsOf(source: ts.SourceFile): { name: string; body: string }[] {
  const found: { name: string; body: string }[] = [];
  const add = (name: string, fn: ts.SignatureDeclaration & { body?: ts.Node }) => {
    const text = `(${fn.parameters.map((p) => p.getText(source)).join(', ')}) ${fn.body?.getText(source)}`;
    found.push({ name, body: text.replace(/\s+/g, ' ') });
  };
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) {
      add(statement.name.text, statement);
    }
    if (!ts.isVariableStatement(statement)) continue;
    for (const declaration of statement.declarationList.declarations) {
      const init = declaration.initializer;
      if (!ts.isIdentifier(declaration.name) || !init) continue;
      if (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) {
        add(declaration.name.text, init);
      }
    }
  }
  return found;
}

/** Functions with one name and one body found in more than one place, with where. */
function duplicates(sources: readonly { file: string; source: ts.SourceFile }[]): string[] {
  const seen = new Map<string, string[]>();
  for (const { file, source } of sources) {
    for (const { name, body } of functionsOf(source)) {
      const key = `${name}\n${body}`;
      seen.set(key, [...(seen.get(key) ?? []), file]);
    }
  }
  return [...seen]
    .filter(([, files]) => files.length > 1)
    .map(([key, files]) => `${key.split('\n')[0]}: ${files.join(', ')}`);
}

describe('helpers of src/', () => {
  it('no two functions share a name and a body', () => {
    const sources = sourceFiles().map((file) => ({ file, source: parseSource(file) }));
    expect(duplicates(sources)).toEqual([]);
  });

  it('finds a copied helper, and not two helpers that share only a name', () => {
    const parse = (file: string, text: string) => ({ file, source: parseSource(file, text) });
    const sources = [
      parse('a.ts', 'function twice(x: number) {\n  return x * 2;\n}'),
      parse(
        'b.ts',
        'const twice = (x: number) => x * 2;\nfunction half(x: number) { return x / 2; }',
      ),
      parse('c.ts', 'export function twice(x: number) { return x * 2; }'),
      parse('d.ts', 'function half(x: number) {\n  return   x / 2;\n}'),
    ];
    expect(duplicates(sources)).toEqual(['twice: a.ts, c.ts', 'half: b.ts, d.ts']);
  });
});

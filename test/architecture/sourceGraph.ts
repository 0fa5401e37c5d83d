import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** Repository root, from this file's place in test/architecture/. */
export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every TypeScript source under `src/`, as paths relative to `src/` with forward slashes. */
export function sourceFiles(): string[] {
  const root = join(repoRoot, 'src');
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
        found.push(relative(root, full).split('\\').join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

/** A source file of `src/`, or the given text under that name. */
export function parseSource(
  file: string,
  text = readFileSync(join(repoRoot, 'src', file), 'utf8'),
): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
}

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type …` or `export type … from`: erased at run time, still a dependency of the design. */
  typeOnly: boolean;
}

/**
 * Relative imports and re-exports of each source file, resolved to the file they name (the ESM
 * `.js` suffix mapped back to `.ts`, a folder to its `index.ts`). Package imports are left out.
 */
export function importEdges(files: readonly string[]): ImportEdge[] {
  const known = new Set(files);
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const source = parseSource(file);
    const add = (specifier: string, typeOnly: boolean): void => {
      if (!specifier.startsWith('.')) return;
      const target = resolveSpecifier(file, specifier, known);
      if (target === null) throw new Error(`${file}: cannot resolve import '${specifier}'`);
      edges.push({ from: file, to: target, typeOnly });
    };
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true);
      } else if (
        ts.isExportDeclaration(node) &&
        node.moduleSpecifier &&
        ts.isStringLiteral(node.moduleSpecifier)
      ) {
        add(node.moduleSpecifier.text, node.isTypeOnly);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments[0] !== undefined &&
        ts.isStringLiteral(node.arguments[0])
      ) {
        add(node.arguments[0].text, false);
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

function resolveSpecifier(
  from: string,
  specifier: string,
  known: ReadonlySet<string>,
): string | null {
  const joined = posix.normalize(posix.join(posix.dirname(from), specifier));
  const candidates = [joined.replace(/\.js$/, '.ts'), `${joined}.ts`, `${joined}/index.ts`];
  return candidates.find((candidate) => known.has(candidate)) ?? null;
}

export interface FunctionSpan {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/**
 * Every function in a source file (declarations, methods, accessors, constructors, arrow
 * functions and function expressions) with its length in lines from its first line to its last.
 * A nested function is measured on its own and also counts in the lines of the one around it.
 */
export function functionSpans(file: string, text?: string): FunctionSpan[] {
  const source = parseSource(file, text);
  const spans: FunctionSpan[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined) {
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      spans.push({ file, name: functionName(node), line: start + 1, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return spans;
}

function functionName(node: ts.SignatureDeclaration): string {
  if (node.name !== undefined && !ts.isComputedPropertyName(node.name)) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

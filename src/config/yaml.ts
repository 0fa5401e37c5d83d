/**
 * YAML files written by users (config, persona catalogue, items, simulator scenario) are
 * parsed here, one way, as data:
 * - a syntax error reads the same everywhere: the file, then one line per error;
 * - anchors, aliases and merge keys (`<<: *defaults`) resolve as YAML defines them, before
 *   anything reads the document: an alias is replaced by the node it names, a merge key adds
 *   the keys the mapping does not write itself. What aliases add to the data is counted and
 *   bounded (an alias bomb is bad input, not a full memory);
 * - a key written twice in one mapping is refused, as are the keys `__proto__`, `constructor`
 *   and `prototype`, which would act on a JavaScript object instead of naming a field;
 * - nesting is bounded.
 * Every problem names the file and the line. Everything here is linear in the size of the
 * file plus what aliases add.
 */
import {
  Composer,
  type CST,
  type Document,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Lexer,
  LineCounter,
  type Node,
  type Pair,
  Parser,
  type Scalar,
  type YAMLMap,
  YAMLParseError,
} from 'yaml';
import { InputError } from '../errors.js';
import { kebabToCamel } from './keys.js';
import { ALIAS_VALUES_PER_BYTE, MAX_NESTING, MIN_ALIAS_VALUES } from './limits.js';

export interface ParsedYamlDocument {
  doc: Document.Parsed;
  lineCounter: LineCounter;
}

/** Keys that would act on an object rather than name a field. */
export const RESERVED_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
]);

/** Problems listed in one message at most; the count says how many there were. */
const LISTED_PROBLEMS = 20;

/**
 * Parses `text` and resolves it into plain data (see the module comment); throws InputError
 * "<name>: not valid YAML" or "<name>: …" naming each problem's line.
 */
export function parseYamlDocument(text: string, name: string): ParsedYamlDocument {
  const lineCounter = new LineCounter();
  const doc = composeChecked(text, name, lineCounter);
  if (doc.errors.length > 0) {
    throw new InputError(
      `${name}: not valid YAML`,
      doc.errors.slice(0, LISTED_PROBLEMS).map((e) => {
        // Without prettyErrors the parser leaves linePos unset: the offset gives the position.
        const pos = e.linePos?.[0] ?? lineCounter.linePos(e.pos[0]);
        const message = e.message.split('\n')[0] ?? e.message;
        return `line ${pos.line}, column ${pos.col}: ${message}`;
      }),
    );
  }
  new Resolver(doc, lineCounter, name, aliasBudget(text.length)).resolve();
  return { doc, lineCounter };
}

/**
 * What `parseDocument` does, in its two steps, with the nesting counted between them: the
 * parser builds its syntax tree without recursion, but composing the document recurses once
 * per level, and thousands of levels (`[[[[…]]]]`) take it past the stack — far enough past
 * that the process dies instead of throwing. A second document in the file is an error, as
 * `parseDocument` has it.
 */
function composeChecked(text: string, name: string, lineCounter: LineCounter): Document.Parsed {
  const tokens = syntaxTree(text, name, lineCounter);
  if (tokens.some((token) => nesting(token) > MAX_NESTING)) throw tooDeep(name);
  const composer = new Composer({ uniqueKeys: false, merge: false });
  let doc: Document.Parsed | null = null;
  for (const next of composer.compose(tokens, true, text.length)) {
    if (doc) {
      const range: [number, number] = [next.range[0], next.range[1]];
      doc.errors.push(
        new YAMLParseError(range, 'MULTIPLE_DOCS', 'Source contains multiple documents'),
      );
      break;
    }
    doc = next;
  }
  // compose(…, true) always ends with a document, an empty one for an empty file.
  return doc as Document.Parsed;
}

/**
 * The parser's syntax tree, as `Parser.parse` builds it, fed one lexical token at a time: flow
 * brackets are counted on the way, so `[[[[…` thousands deep is refused before the parser
 * spends memory on every level.
 */
function syntaxTree(text: string, name: string, lineCounter: LineCounter): CST.Token[] {
  const parser = new Parser(lineCounter.addNewLine);
  lineCounter.addNewLine(0);
  const tokens: CST.Token[] = [];
  let flow = 0;
  for (const lexeme of new Lexer().lex(text)) {
    if (lexeme === '[' || lexeme === '{') {
      if (++flow > MAX_NESTING) throw tooDeep(name);
    } else if (lexeme === ']' || lexeme === '}') {
      flow = Math.max(0, flow - 1);
    }
    for (const token of parser.next(lexeme)) tokens.push(token);
  }
  for (const token of parser.end()) tokens.push(token);
  return tokens;
}

/** Collections inside one another in a syntax-tree token, counted without recursion. */
function nesting(root: CST.Token): number {
  let deepest = 0;
  const stack: { token: CST.Token; depth: number }[] = [{ token: root, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { token, depth } = next;
    if (token.type === 'document') {
      if (token.value) stack.push({ token: token.value, depth });
      continue;
    }
    if (
      token.type !== 'block-map' &&
      token.type !== 'block-seq' &&
      token.type !== 'flow-collection'
    )
      continue;
    deepest = Math.max(deepest, depth + 1);
    // Past the bound: no need to look deeper.
    if (deepest > MAX_NESTING) return deepest;
    for (const item of token.items) {
      if ('key' in item && item.key) stack.push({ token: item.key, depth: depth + 1 });
      if (item.value) stack.push({ token: item.value, depth: depth + 1 });
    }
  }
  return deepest;
}

/** Values aliases may add to a document of `length` characters. */
export function aliasBudget(length: number): number {
  return Math.max(MIN_ALIAS_VALUES, Math.floor(length * ALIAS_VALUES_PER_BYTE));
}

/** The document as plain data (mappings as objects, sequences as arrays). */
export function yamlValue(parsed: ParsedYamlDocument): unknown {
  return parsed.doc.toJS();
}

/**
 * A document that must be a list (items): each entry as plain data with the line it starts
 * on; null when the document is not a list.
 */
export function yamlListEntries(
  parsed: ParsedYamlDocument,
  list: unknown = parsed.doc.contents,
): { value: unknown; line: number; node: unknown }[] | null {
  const root = list;
  if (!isSeq(root)) return null;
  return root.items.map((node) => {
    const offset = isNode(node) ? (node.range?.[0] ?? 0) : 0;
    return {
      value: isNode(node) ? node.toJSON() : node,
      line: parsed.lineCounter.linePos(offset).line,
      node,
    };
  });
}

/**
 * The line of the value at `path` below `node` (a document's contents, or one of its list
 * entries): a mapping key's own line (`maxTokens` finds `max-tokens`), a list entry's first line. Where the path leaves the
 * document (a field not written), the line of the deepest part that is written; null when not
 * even `node` has a place.
 */
export function lineOfPath(
  lines: LineCounter,
  node: unknown,
  path: readonly PropertyKey[],
): number | null {
  const lineOf = (at: unknown): number | null =>
    isNode(at) && at.range ? lines.linePos(at.range[0]).line : null;
  let current = node;
  let line = lineOf(node);
  for (const segment of path) {
    if (isMap(current)) {
      const name = kebabToCamel(String(segment));
      const pair = current.items.find((p) => kebabToCamel(keyText(p.key)) === name);
      if (!pair) break;
      line = lineOf(pair.key) ?? lineOf(pair.value) ?? line;
      current = pair.value;
    } else if (isSeq(current) && typeof segment === 'number') {
      const item = current.items[segment];
      if (!isNode(item)) break;
      line = lineOf(item) ?? line;
      current = item;
    } else break;
  }
  return line;
}

function isNode(value: unknown): value is Node {
  return isScalar(value) || isMap(value) || isSeq(value) || isAlias(value);
}

function tooDeep(name: string): InputError {
  return new InputError(`${name}: nested too deeply`, [
    `lists and mappings may be nested at most ${MAX_NESTING} levels deep`,
  ]);
}

interface Anchored {
  node: Node;
  /** Values in the node, aliases expanded; known once the node is resolved. */
  values: number;
  /** Still being resolved: an alias to it from inside would never end. */
  open: boolean;
}

/** Walks the document once, in order, resolving aliases and merge keys in place. */
class Resolver {
  private readonly anchors = new Map<string, Anchored>();
  private readonly problems: string[] = [];
  private onlyYamlErrors = true;
  private added = 0;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly lines: LineCounter,
    private readonly name: string,
    private readonly budget: number,
  ) {}

  resolve(): void {
    const root = this.doc.contents;
    if (root) this.doc.contents = this.visit(root, 0).node as typeof root;
    if (this.problems.length > 0) {
      const count = this.problems.length;
      // A key written twice or an alias of nothing breaks YAML itself; the rest is refused.
      const heading = this.onlyYamlErrors
        ? 'not valid YAML'
        : count === 1
          ? 'refused'
          : `${count} problems`;
      throw new InputError(
        `${this.name}: ${heading}`,
        count > LISTED_PROBLEMS
          ? [...this.problems.slice(0, LISTED_PROBLEMS), `… and ${count - LISTED_PROBLEMS} more`]
          : this.problems,
      );
    }
  }

  /** "line 3, column 5: ", as the parser's own errors read. */
  private at(node: { range?: readonly number[] | null } | null | undefined): string {
    const offset = node?.range?.[0];
    if (offset === undefined) return '';
    const { line, col } = this.lines.linePos(offset);
    return `line ${line}, column ${col}: `;
  }

  /** The node to keep in place of `node`, and how many values it holds. */
  private visit(node: Node, depth: number): { node: Node; values: number } {
    if (depth > MAX_NESTING) throw tooDeep(this.name);
    if (isAlias(node)) return this.expand(node.source, node);
    const anchored: Anchored | null = node.anchor ? { node, values: 0, open: true } : null;
    if (anchored && node.anchor) this.anchors.set(node.anchor, anchored);
    let values = 1;
    if (isSeq(node)) {
      node.items.forEach((item, i) => {
        if (!isNode(item)) return;
        const resolved = this.visit(item, depth + 1);
        node.items[i] = resolved.node;
        values += resolved.values;
      });
    } else if (isMap(node)) {
      values += this.visitMap(node as YAMLMap<unknown, unknown>, depth);
    }
    if (anchored) {
      anchored.values = values;
      anchored.open = false;
    }
    return { node, values };
  }

  /** The anchored node in the alias's place, its values counted against the budget. */
  private expand(source: string, alias: Node): { node: Node; values: number } {
    const anchored = this.anchors.get(source);
    if (!anchored) {
      this.problems.push(`${this.at(alias)}alias *${source} names no anchor written before it`);
      return { node: alias, values: 1 };
    }
    if (anchored.open) {
      this.onlyYamlErrors = false;
      this.problems.push(`${this.at(alias)}alias *${source} is inside the node it names`);
      return { node: alias, values: 1 };
    }
    this.added += anchored.values;
    if (this.added > this.budget) {
      throw new InputError(`${this.name}: ${this.at(alias)}aliases expand too far`, [
        `aliases may add at most ${this.budget.toLocaleString('en-US')} values to this file (an alias of an alias multiplies them); write the values out, or use fewer aliases`,
      ]);
    }
    // The node itself, shared: it is resolved already and nothing changes it any more, and
    // reading it into data (toJS) makes a copy for each place it appears.
    return { node: anchored.node, values: anchored.values };
  }

  /** Resolves a mapping's keys and values, applies its merge keys; returns its values. */
  private visitMap(map: YAMLMap<unknown, unknown>, depth: number): number {
    let values = 0;
    const written = new Map<string, number>();
    const merges: { index: number; sources: YAMLMap<unknown, unknown>[] }[] = [];
    map.items.forEach((pair, index) => {
      if (isNode(pair.key)) {
        const key = this.visit(pair.key, depth + 1);
        pair.key = key.node;
      }
      if (isNode(pair.value)) {
        const value = this.visit(pair.value, depth + 1);
        pair.value = value.node;
        values += value.values;
      }
      if (isMergeKey(pair.key)) {
        merges.push({ index, sources: this.mergeSources(pair) });
        return;
      }
      values++;
      this.checkKey(pair, written);
    });
    if (merges.length > 0) this.applyMerges(map, merges, written);
    return values;
  }

  private checkKey(pair: Pair<unknown, unknown>, written: Map<string, number>): void {
    const key = pair.key;
    if (key !== null && !isScalar(key)) {
      this.onlyYamlErrors = false;
      this.problems.push(`${this.at(key as Node)}a key must be plain text, not a list or mapping`);
      return;
    }
    const text = keyText(key);
    const where = this.at(key ?? (pair.value as Node | null));
    if (RESERVED_KEYS.has(text)) {
      this.onlyYamlErrors = false;
      this.problems.push(
        `${where}key "${text}" is not accepted: __proto__, constructor and prototype are reserved names`,
      );
    }
    const first = written.get(text);
    const line = key?.range ? this.lines.linePos(key.range[0]).line : 0;
    if (first !== undefined) {
      this.problems.push(
        `${where}map keys must be unique: "${text}" is written again (first on line ${first})`,
      );
    } else {
      written.set(text, line);
    }
  }

  /** The mappings a merge key names: one mapping, or a list of them (earlier ones win). */
  private mergeSources(pair: Pair<unknown, unknown>): YAMLMap<unknown, unknown>[] {
    const value = pair.value;
    if (isMap(value)) return [value as YAMLMap<unknown, unknown>];
    if (isSeq(value) && value.items.every((item) => isMap(item))) {
      return value.items as YAMLMap<unknown, unknown>[];
    }
    this.onlyYamlErrors = false;
    this.problems.push(
      `${this.at(pair.key as Node)}a merge key (<<) expects a mapping (an alias such as *defaults) or a list of them`,
    );
    return [];
  }

  /** Keys written in the mapping win over merged ones; a merge key's pairs take its place. */
  private applyMerges(
    map: YAMLMap<unknown, unknown>,
    merges: readonly { index: number; sources: YAMLMap<unknown, unknown>[] }[],
    written: ReadonlyMap<string, number>,
  ): void {
    const taken = new Set(written.keys());
    const byIndex = new Map(merges.map((m) => [m.index, m.sources]));
    const items: Pair<unknown, unknown>[] = [];
    map.items.forEach((pair, index) => {
      const sources = byIndex.get(index);
      if (!sources) {
        items.push(pair);
        return;
      }
      for (const source of sources) {
        for (const merged of source.items) {
          const text = keyText(merged.key);
          if (taken.has(text) || !isPair(merged)) continue;
          taken.add(text);
          items.push(merged);
        }
      }
    });
    map.items = items;
  }
}

function isMergeKey(key: unknown): boolean {
  return isScalar(key) && key.value === '<<' && (key as Scalar).type === 'PLAIN';
}

function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/**
 * JSON written by users (items as JSON Lines or a JSON array) read as data, the rules of
 * src/config/yaml.ts applied: `JSON.parse` keeps the last of two equal keys without a word
 * (`{"id": "a", "answer": "B", "answer": "C"}`), so a second pass over the text refuses a key
 * written twice in one object, and the reserved keys `__proto__`, `constructor` and
 * `prototype`, each with its line. Both passes are linear in the text.
 *
 * Keys are judged as parsed, never as written: `"__pro\u0074o__"` is `__proto__`. And a value
 * is walked with a stack of its own, its depth bounded (MAX_NESTING, as in YAML): JSON.parse
 * reads 40,000 nested brackets, but every recursive walk after it would overflow the stack.
 */
import { InputError } from '../errors.js';
import { formatSize, MAX_ITEMS, MAX_LINE_BYTES, MAX_NESTING } from './limits.js';
import { RESERVED_KEYS } from './yaml.js';

/** Strings (keys or values) and the punctuation that opens, closes and separates. */
const TOKEN = /"(?:[^"\\]|\\.)*"|[{}[\],]/g;

interface Frame {
  object: boolean;
  keys: Map<string, number> | null;
  expectKey: boolean;
}

/** Line numbers of offsets, asked in increasing order: counted once over the text. */
class LineCursor {
  private offset = 0;
  private line: number;

  constructor(
    private readonly text: string,
    firstLine: number,
  ) {
    this.line = firstLine;
  }

  at(offset: number): number {
    for (;;) {
      const next = this.text.indexOf('\n', this.offset);
      if (next === -1 || next >= offset) break;
      this.line++;
      this.offset = next + 1;
    }
    return this.line;
  }
}

/**
 * Problems with the keys of `text`, a JSON text `JSON.parse` accepted, starting on line
 * `firstLine`.
 */
export function jsonKeyProblems(text: string, firstLine = 1): { line: number; message: string }[] {
  const problems: { line: number; message: string }[] = [];
  const lines = new LineCursor(text, firstLine);
  const stack: Frame[] = [];
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const top = stack[stack.length - 1];
    if (token === '{' || token === '[') {
      stack.push({ object: token === '{', keys: null, expectKey: token === '{' });
    } else if (token === '}' || token === ']') {
      stack.pop();
    } else if (token === ',') {
      if (top?.object) top.expectKey = true;
    } else if (top?.object && top.expectKey) {
      top.expectKey = false;
      const key = JSON.parse(token) as string;
      const line = lines.at(match.index);
      top.keys ??= new Map();
      const first = top.keys.get(key);
      if (RESERVED_KEYS.has(key)) {
        problems.push({
          line,
          message: `key "${key}" is not accepted: __proto__, constructor and prototype are reserved names`,
        });
      } else if (first !== undefined) {
        problems.push({
          line,
          message: `key "${key}" written twice in one object (first on line ${first})`,
        });
      } else {
        top.keys.set(key, line);
      }
    }
  }
  return problems;
}

const KEY_END = /"\s*:/g;

/** What the walk of a parsed value found; `tooDeep` stops it. */
interface Shape {
  keys: number;
  reserved: boolean;
  tooDeep: boolean;
}

/**
 * The keys of a parsed JSON value (counted), whether one is a reserved name, and whether it
 * nests deeper than MAX_NESTING (the top object or list is level 1). The walk recurses, but
 * stops at the first level too deep: 40,000 nested lists cost MAX_NESTING frames, not 40,000.
 */
function shapeOf(value: unknown): Shape {
  const shape: Shape = { keys: 0, reserved: false, tooDeep: false };
  walk(value, 1, shape);
  return shape;
}

function isNested(value: unknown): value is object {
  return value !== null && typeof value === 'object';
}

/** Adds `inner`, at `depth`, to `shape`; false once a level is too deep. */
function walk(inner: unknown, depth: number, shape: Shape): boolean {
  if (!isNested(inner)) return true;
  if (depth > MAX_NESTING) {
    shape.tooDeep = true;
    return false;
  }
  if (Array.isArray(inner)) {
    // Numbers and strings are passed over here: a list of a million is no million calls.
    for (const element of inner)
      if (isNested(element) && !walk(element, depth + 1, shape)) return false;
    return true;
  }
  const fields = inner as Record<string, unknown>;
  // JSON.parse makes plain objects: every key `in` finds is their own, and no list of keys
  // is made for each of 300,000 objects on a line.
  for (const key in fields) {
    shape.keys++;
    if (RESERVED_KEYS.has(key)) shape.reserved = true;
    const field = fields[key];
    if (isNested(field) && !walk(field, depth + 1, shape)) return false;
  }
  return true;
}

/** Whether a parsed JSON value nests deeper than MAX_NESTING (walked without recursion). */
export function nestedTooDeeply(value: unknown): boolean {
  return shapeOf(value).tooDeep;
}

/** The problem of a value nested deeper than MAX_NESTING, in the words of the YAML reader. */
const TOO_DEEP = `nested too deeply: lists and objects may be nested at most ${MAX_NESTING} levels deep`;

/**
 * The problems of `jsonKeyProblems` for one JSON text already parsed into `value`, with a
 * shortcut for the usual case: every key ends in `":`, so when the text holds as many `":` as
 * the parsed value holds keys, none was written twice (a duplicate would leave fewer keys);
 * whether a key is reserved is asked of the parsed keys. A value nested too deeply is one
 * problem, said before any other walk.
 */
export function parsedKeyProblems(
  text: string,
  value: unknown,
  firstLine = 1,
): { line: number; message: string }[] {
  const shape = shapeOf(value);
  if (shape.tooDeep) return [{ line: firstLine, message: TOO_DEEP }];
  if (!shape.reserved && (text.match(KEY_END)?.length ?? 0) === shape.keys) return [];
  return jsonKeyProblems(text, firstLine);
}

/** Where one element of a top-level array is written: parsed again when its value is asked. */
class ArrayElement {
  constructor(
    private readonly text: string,
    private readonly start: number,
    private readonly end: number,
    readonly line: number,
  ) {}

  get value(): unknown {
    return JSON.parse(this.text.slice(this.start, this.end));
  }
}

/** The offset of the quote that closes the string opened at `open`; -1 when none does. */
function stringEnd(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote === -1) return -1;
    let escapes = 0;
    while (text[quote - 1 - escapes] === '\\') escapes++;
    if (escapes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * The elements of a JSON text that must be an array, each with the line it starts on; each
 * element's value is parsed when it is asked for and not kept, so the memory is the text and
 * one element at a time, never the whole parsed array. Null when the text is not a JSON array
 * (the caller may read it as YAML); bad input when a key is refused, an element is larger than
 * a line may be or nests too deeply.
 *
 * A scan finds the elements before any is parsed: JSON.parse of the whole array cost 1.5 GB
 * for 64 MiB of 32 million numbers, and each element's size and nesting are bounded before
 * its own parse. Only MAX_ITEMS + 1 elements are read: the caller refuses one too many.
 */
export function parseJsonList(text: string, name: string): ArrayElement[] | null {
  const open = /\S/g.exec(text);
  if (open?.[0] !== '[') return null;
  const elements: ArrayElement[] = [];
  const problems: { line: number; message: string }[] = [];
  const lines = new LineCursor(text, 1);
  const first = /\S/g;
  /** The offset of the first character other than white space from `start`, before `end`. */
  const after = (start: number, end: number): number | null => {
    first.lastIndex = start;
    const at = first.exec(text)?.index ?? end;
    return at < end ? at : null;
  };
  /** Reads the element between `start` and `end`; false when it is not JSON. */
  const element = (start: number, end: number): boolean => {
    const at = after(start, end);
    if (at === null) return false;
    const line = lines.at(at);
    if (end - at > MAX_LINE_BYTES / 3) {
      const bytes = Buffer.byteLength(text.slice(at, end), 'utf8');
      if (bytes > MAX_LINE_BYTES) {
        throw new InputError(
          `${name}:${line}: an item of ${formatSize(bytes)}; an item may hold at most ${formatSize(MAX_LINE_BYTES)}`,
          ['as a line of JSON Lines: no item needs this much; is it the right file?'],
        );
      }
    }
    const source = text.slice(at, end);
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      return false;
    }
    for (const problem of parsedKeyProblems(source, value, line)) problems.push(problem);
    elements.push(new ArrayElement(text, at, end, line));
    return true;
  };
  let depth = 0;
  let start = (open.index ?? 0) + 1;
  for (let i = start; i < text.length; i++) {
    const char = text[i];
    if (char === '"') {
      i = stringEnd(text, i);
      if (i === -1) return null;
    } else if (char === '[' || char === '{') {
      // The array is the first level, as the list of a YAML file is.
      if (++depth >= MAX_NESTING) {
        throw new InputError(`${name}:${lines.at(i)}: nested too deeply`, [
          `lists and objects may be nested at most ${MAX_NESTING} levels deep`,
        ]);
      }
    } else if ((char === ']' || char === '}') && depth > 0) {
      depth--;
    } else if (char === ',' && depth === 0) {
      if (!element(start, i)) return null;
      start = i + 1;
      if (elements.length > MAX_ITEMS) return elements;
    } else if (char === ']') {
      const empty = elements.length === 0 && after(start, i) === null;
      if (!empty && !element(start, i)) return null;
      if (after(i + 1, text.length) !== null) return null;
      if (problems.length > 0) {
        throw new InputError(
          `${name}: ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}`,
          problems.slice(0, 20).map((p) => `line ${p.line}: ${p.message}`),
        );
      }
      return elements;
    } else if (char === '}') {
      return null;
    }
  }
  return null;
}

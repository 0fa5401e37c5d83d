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
import { MAX_NESTING } from './limits.js';
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
 * `firstLine`; `onElement` hears the offset of each element of a top-level array.
 */
export function jsonKeyProblems(
  text: string,
  firstLine = 1,
  onElement?: (offset: number) => void,
): { line: number; message: string }[] {
  const problems: { line: number; message: string }[] = [];
  const lines = new LineCursor(text, firstLine);
  const stack: Frame[] = [];
  const element = (from: number): void => {
    if (!onElement || stack.length !== 1 || stack[0]?.object) return;
    const start = /\S/g;
    start.lastIndex = from;
    const found = start.exec(text);
    if (found && found[0] !== ']') onElement(found.index);
  };
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0];
    const top = stack[stack.length - 1];
    if (token === '{' || token === '[') {
      stack.push({ object: token === '{', keys: null, expectKey: token === '{' });
      if (token === '[') element(match.index + 1);
    } else if (token === '}' || token === ']') {
      stack.pop();
    } else if (token === ',') {
      if (top?.object) top.expectKey = true;
      else element(match.index + 1);
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
 * nests deeper than MAX_NESTING (the top object or list is level 1). No recursion: the walk
 * keeps its own stack, and stops at the first level too deep.
 */
function shapeOf(value: unknown): Shape {
  const shape: Shape = { keys: 0, reserved: false, tooDeep: false };
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 1 }];
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const inner = next.value;
    if (inner === null || typeof inner !== 'object') continue;
    if (next.depth > MAX_NESTING) {
      shape.tooDeep = true;
      return shape;
    }
    // Only lists and objects go on the stack: a list of a million numbers is no million frames.
    if (Array.isArray(inner)) {
      for (const element of inner)
        if (element !== null && typeof element === 'object')
          stack.push({ value: element, depth: next.depth + 1 });
      continue;
    }
    for (const [key, field] of Object.entries(inner)) {
      shape.keys++;
      if (RESERVED_KEYS.has(key)) shape.reserved = true;
      if (field !== null && typeof field === 'object')
        stack.push({ value: field, depth: next.depth + 1 });
    }
  }
  return shape;
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

/**
 * A JSON text that must be an array: each element with the line it starts on. Null when the
 * text is not JSON (the caller may read it as YAML); bad input when a key is refused.
 */
export function parseJsonList(
  text: string,
  name: string,
): { value: unknown; line: number }[] | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!Array.isArray(value)) return null;
  if (shapeOf(value).tooDeep) {
    throw new InputError(`${name}: nested too deeply`, [
      `lists and objects may be nested at most ${MAX_NESTING} levels deep`,
    ]);
  }
  const offsets: number[] = [];
  const problems = jsonKeyProblems(text, 1, (offset) => offsets.push(offset));
  if (problems.length > 0) {
    throw new InputError(
      `${name}: ${problems.length === 1 ? '1 problem' : `${problems.length} problems`}`,
      problems.slice(0, 20).map((p) => `line ${p.line}: ${p.message}`),
    );
  }
  const lines = new LineCursor(text, 1);
  return value.map((entry, i) => ({ value: entry, line: lines.at(offsets[i] ?? 0) }));
}

/**
 * JSON written by users (items as JSON Lines or a JSON array) read as data, the rules of
 * src/config/yaml.ts applied: `JSON.parse` keeps the last of two equal keys without a word
 * (`{"id": "a", "answer": "B", "answer": "C"}`), so a second pass over the text refuses a key
 * written twice in one object, and the reserved keys `__proto__`, `constructor` and
 * `prototype`, each with its line. Both passes are linear in the text.
 */
import { InputError } from '../errors.js';
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

const RESERVED_TEXT = /__proto__|constructor|prototype/;
const KEY_END = /"\s*:/g;

/**
 * The problems of `jsonKeyProblems` for one JSON text already parsed into `value`, with a
 * shortcut for the usual case: every key ends in `":`, so when the text holds as many `":` as
 * the parsed value holds keys, none was written twice (a duplicate would leave fewer keys),
 * and without a reserved name in the text none is reserved.
 */
export function parsedKeyProblems(
  text: string,
  value: unknown,
  firstLine = 1,
): { line: number; message: string }[] {
  if (!RESERVED_TEXT.test(text) && (text.match(KEY_END)?.length ?? 0) === keysIn(value)) return [];
  return jsonKeyProblems(text, firstLine);
}

function keysIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, inner) => sum + keysIn(inner), 0);
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  for (const inner of Object.values(value)) count += 1 + keysIn(inner);
  return count;
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

/**
 * Regular expressions of an items file (a `regex` grader's pattern, a JSON Schema's `pattern`)
 * run on RE2JS, a pure-JavaScript port of RE2: matching time is linear in the answer whatever
 * the pattern, so `^(\w+\s?)+$` on a long answer takes milliseconds instead of hours, and the
 * process stays responsive to signals between answers. JavaScript's own engine backtracks.
 *
 * Patterns are written in JavaScript syntax; they are translated to RE2's where the two differ
 * so that an answer matches as it would in JavaScript: `\s` and `\S` (JavaScript's white space
 * is Unicode's, RE2's is ASCII), `.` (which stops at \r, U+2028 and U+2029 too), `\uXXXX`,
 * `\u{…}` and `\cX` escapes, `[` inside a class, the classes `[]` and `[^]`. Lookbehind is
 * kept (RE2JS has a linear one). What cannot run in linear time — backreferences and
 * lookahead — is refused when the items file is read, with the reason. Left as RE2 reads it:
 * `\S` inside a class (ASCII white space), and case folding under `i`, which follows Unicode
 * (a Kelvin sign matches `k`).
 */
import { RE2JS } from 're2js';

/** JavaScript's `\s`: Unicode white space and line terminators, as the content of a class. */
const SPACE = '\\t-\\r\\p{Zs}\\x{2028}\\x{2029}\\x{feff}';
/** JavaScript's `.` without the `s` flag: anything but a line terminator. */
const ANY_BUT_NEWLINE = '[^\\n\\r\\x{2028}\\x{2029}]';

/** Why a pattern cannot be run in linear time; thrown by `compileLinear`. */
export class UnsupportedPattern extends Error {}

/** A compiled pattern: `exec` gives the first match's text, or null. */
export interface LinearRegex {
  test(text: string): boolean;
  exec(text: string): string | null;
  /** `/pattern/flags`: Ajv tells its compiled patterns apart by this text. */
  toString(): string;
}

/** Compiles a JavaScript pattern with its flags (`dimsuv`); throws on a bad or refused one. */
export function compileLinear(pattern: string, flags: string): LinearRegex {
  const dotAll = flags.includes('s');
  let options = RE2JS.LOOKBEHINDS;
  if (flags.includes('i')) options |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('m')) options |= RE2JS.MULTILINE;
  if (dotAll) options |= RE2JS.DOTALL;
  const compiled = RE2JS.compile(translate(pattern, dotAll, flags.includes('v')), options);
  return {
    test: (text) => compiled.test(text),
    exec(text) {
      const matcher = compiled.matcher(text);
      return matcher.find() ? (matcher.group() ?? '') : null;
    },
    toString: () => `/${pattern}/${flags}`,
  };
}

function hexEscape(code: number): string {
  return `\\x{${code.toString(16)}}`;
}

/** The pattern in RE2's syntax, with JavaScript's meaning. */
function translate(pattern: string, dotAll: boolean, setNotation: boolean): string {
  let out = '';
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      const [text, length] = translateEscape(pattern, i, inClass);
      out += text;
      i += length;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
      const setOperation = pattern.startsWith('--', i) || pattern.startsWith('&&', i);
      if (setNotation && (c === '[' || setOperation)) {
        throw new UnsupportedPattern(
          'nested classes and set operations (flag v) are not supported',
        );
      }
      out += c === '[' ? '\\[' : c;
      i++;
      continue;
    }
    if (c === '[') {
      if (pattern.startsWith('[]', i)) {
        out += '[^\\x{0}-\\x{10ffff}]';
        i += 2;
        continue;
      }
      if (pattern.startsWith('[^]', i)) {
        out += '(?s:.)';
        i += 3;
        continue;
      }
      inClass = true;
      out += c;
      if (pattern.charAt(i + 1) === '^') {
        out += '^';
        i++;
      }
      i++;
      continue;
    }
    if (c === '(' && (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i))) {
      throw new UnsupportedPattern(
        'lookahead ((?= or (?!) is not supported (it cannot run in linear time)',
      );
    }
    out += c === '.' && !dotAll ? ANY_BUT_NEWLINE : c;
    i++;
  }
  return out;
}

/** One escape at `i`: its RE2 text and how many characters of the pattern it took. */
function translateEscape(pattern: string, i: number, inClass: boolean): [string, number] {
  const next = pattern.charAt(i + 1);
  if (next === 's') return [inClass ? SPACE : `[${SPACE}]`, 2];
  if (next === 'S' && !inClass) return [`[^${SPACE}]`, 2];
  if (next === 'u') {
    const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i + 2));
    if (braced) return [hexEscape(Number.parseInt(braced[1] as string, 16)), 2 + braced[0].length];
    const four = /^[0-9a-fA-F]{4}/.exec(pattern.slice(i + 2));
    if (four) return [hexEscape(Number.parseInt(four[0], 16)), 6];
  }
  if (next === 'c' && /[A-Za-z]/.test(pattern.charAt(i + 2))) {
    return [hexEscape(pattern.charCodeAt(i + 2) % 32), 3];
  }
  if (/[1-9]/.test(next) || (next === 'k' && pattern.charAt(i + 2) === '<')) {
    throw new UnsupportedPattern(
      'backreferences (\\1, \\k<name>) are not supported (they cannot run in linear time)',
    );
  }
  return [`\\${next}`, 2];
}

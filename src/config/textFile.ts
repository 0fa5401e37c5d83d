/**
 * Every text file a user gives (config, items, persona catalogue) is decoded here, one way:
 * a UTF-8 byte-order mark is dropped (editors on Windows write one; it would otherwise be an
 * invisible first character of the first key or id), and bytes that are not UTF-8 (a file
 * saved as Latin-1 or UTF-16) are bad input naming the line — never silently replaced. A line
 * longer than the limit (src/config/limits.ts) is bad input too.
 */
import { InputError } from '../errors.js';
import { refuseLongLines } from './limits.js';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

export function decodeUserText(bytes: Uint8Array, name: string): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new InputError(`${name}: the file is UTF-16 text`, ['save it as UTF-8']);
  }
  const start = UTF8_BOM.every((b, i) => bytes[i] === b) ? UTF8_BOM.length : 0;
  const body = bytes.subarray(start);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    const { line, column, byte } = firstInvalidByte(body);
    throw new InputError(`${name}:${line}: not valid UTF-8 text`, [
      `byte 0x${byte.toString(16).toUpperCase().padStart(2, '0')} at column ${column} is not UTF-8; save the file as UTF-8 (it may be Latin-1 or Windows-1252)`,
    ]);
  }
  refuseLongLines(text, name);
  return text;
}

/** Line (1-based), column (1-based, in bytes) and value of the first byte UTF-8 refuses. */
function firstInvalidByte(bytes: Uint8Array): { line: number; column: number; byte: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let lineStart = 0;
  let line = 1;
  for (let i = 0; i <= bytes.length; i++) {
    if (i < bytes.length && bytes[i] !== 0x0a) continue;
    const content = bytes.subarray(lineStart, i);
    try {
      decoder.decode(content);
    } catch {
      return { line, ...firstInvalidInLine(content) };
    }
    line++;
    lineStart = i + 1;
  }
  return { line: 1, column: 1, byte: bytes[0] ?? 0 };
}

function firstInvalidInLine(content: Uint8Array): { column: number; byte: number } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let i = 0;
  while (i < content.length) {
    const byte = content[i] as number;
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0;
    if (length === 0 || i + length > content.length) return { column: i + 1, byte };
    try {
      decoder.decode(content.subarray(i, i + length));
    } catch {
      return { column: i + 1, byte };
    }
    i += length;
  }
  return { column: 1, byte: content[0] ?? 0 };
}

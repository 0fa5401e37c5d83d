/**
 * Appending to the sample log. One file descriptor opened for append; each record is one
 * `write` of one line, made synchronously before `append` returns, so a killed process loses
 * only the requests still in flight.
 *
 * The log is opened only when it is one: an existing file whose first record is not a
 * sample-log record is refused untouched (bad input). The only bytes ever removed are a last
 * record cut short by a kill (a line that starts like a record and has no final newline), so
 * the next record starts on a line of its own. A symbolic link at the log's place is refused,
 * and registered secrets are scrubbed from each record (an error body that echoes a key).
 */
import { closeSync, fstatSync, ftruncateSync, mkdirSync, readSync, writeSync } from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { openForAppend } from '../files/safeWrite.js';
import { scrubData } from '../text/secrets.js';
import { type LogLine, readRecord } from './schema.js';

export interface SampleLogWriter {
  readonly path: string;
  append(record: LogLine): void;
  close(): void;
}

export interface OpenedSampleLog {
  writer: SampleLogWriter;
  /** Set when an incomplete last line (an interrupted write) was removed. */
  warnings: string[];
}

/** Every record this tool writes starts with these bytes (JSON.stringify keeps key order). */
const RECORD_START = '{"v":';

/** True when `text` is how a record of ours begins (or a shorter piece of that beginning). */
export function startsLikeRecord(text: string): boolean {
  return text.length >= RECORD_START.length
    ? text.startsWith(RECORD_START)
    : RECORD_START.startsWith(text);
}

export function openSampleLog(file: string): OpenedSampleLog {
  mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  const warnings: string[] = [];
  // Appended to, never replaced: a link at its place is refused rather than written through.
  const fd = openForAppend(file, 'sample log');
  try {
    refuseForeignFile(fd, file);
    const cut = incompleteTailLength(fd, file);
    if (cut > 0) {
      ftruncateSync(fd, fstatSync(fd).size - cut);
      warnings.push(
        `${file}: removed an incomplete last line (${cut} bytes) left by an interrupted run`,
      );
    }
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  let open = true;
  return {
    warnings,
    writer: {
      path: file,
      append(record) {
        if (!open) throw new Error(`sample log ${file} is closed`);
        const bytes = Buffer.from(`${JSON.stringify(scrubData(record))}\n`, 'utf8');
        let written = 0;
        while (written < bytes.length) {
          written += writeSync(fd, bytes, written, bytes.length - written);
        }
      },
      close() {
        if (!open) return;
        open = false;
        closeSync(fd);
      },
    },
  };
}

const FIRST_LINE_LIMIT = 1 << 20;

/**
 * An existing, non-empty file must begin with a sample-log record: another file given as
 * `--log` by mistake is never appended to or cut.
 */
function refuseForeignFile(fd: number, file: string): void {
  const size = fstatSync(fd).size;
  if (size === 0) return;
  const head = Buffer.alloc(Math.min(size, FIRST_LINE_LIMIT));
  const read = readSync(fd, head, 0, head.length, 0);
  const text = head.subarray(0, read).toString('utf8');
  const newline = text.indexOf('\n');
  const refuse = (why: string): never => {
    throw new InputError(`${file}: not a sample log (${why}); it was left untouched`, [
      'model-gate appends only to a sample log it wrote; give --log (output.log) a new path or a samples.jsonl of an earlier run',
    ]);
  };
  if (newline < 0) {
    // A single line cut short by a kill during the very first write is still ours.
    if (read === size && startsLikeRecord(text)) return;
    refuse('its first line is not a sample-log record');
  }
  let value: unknown;
  try {
    value = JSON.parse(text.slice(0, newline));
  } catch {
    refuse('its first line is not JSON');
  }
  const first = readRecord(value);
  if ('problem' in first) refuse(`line 1: ${first.problem}`);
}

/** Bytes after the last newline (0 when the file is empty or ends with one). */
function incompleteTailLength(fd: number, file: string): number {
  const size = fstatSync(fd).size;
  const chunk = Buffer.alloc(4096);
  let end = size;
  while (end > 0) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (at >= 0) return checkedTail(fd, file, size - (start + at + 1), size);
    end = start;
  }
  return checkedTail(fd, file, size, size);
}

/** The tail is cut only when it is the beginning of a record; other bytes are not ours. */
function checkedTail(fd: number, file: string, length: number, size: number): number {
  if (length === 0) return 0;
  const head = Buffer.alloc(Math.min(length, RECORD_START.length));
  readSync(fd, head, 0, head.length, size - length);
  if (startsLikeRecord(head.toString('utf8'))) return length;
  throw new InputError(
    `${file}: the sample log ends with ${length} bytes that are not a record cut short (no final newline, not a record's beginning); it was left untouched`,
    ['was the file edited or appended to by another program? end it with a newline or restore it'],
  );
}

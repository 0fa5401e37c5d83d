/**
 * Bounds on one line of a sample log. A log the run did not write (committed in a pull
 * request, left in a cache) is read line by line, so its size is no limit of its own; but one
 * line without a newline — 2 GB of anything — would grow the reader's line buffer without end,
 * and a record nested 40,000 levels deep would pass to every walk after the parser.
 *
 * A record a run writes stays far below the line limit: an answer's `text` is cut to 8 kB, and
 * the largest field is an embedding vector (about 100 kB for 4,096 dimensions, 2 MB for a
 * 65,536-dimension one).
 */
import { nestedTooDeeply } from '../config/jsonData.js';
import { formatSize, MAX_NESTING } from '../config/limits.js';
import { InputError } from '../errors.js';

/** The longest line of a sample log, in bytes (docs/security.md, "Size limits"). */
export const MAX_LOG_LINE_BYTES = 16 * 1024 * 1024;

/**
 * Refuses line `line` of `file` once `bytes` of it are read without its end: at
 * MAX_LOG_LINE_BYTES, before the reader's buffer grows again.
 */
export function refuseLongLogLine(file: string, line: number, bytes: number): void {
  if (bytes < MAX_LOG_LINE_BYTES) return;
  throw new InputError(
    `${file}:${line}: a line of more than ${formatSize(MAX_LOG_LINE_BYTES)}; a line of a sample log holds at most ${formatSize(MAX_LOG_LINE_BYTES)}`,
    [
      'a record model-gate writes is a few hundred bytes (an answer is cut to 8 kB): is it the samples.jsonl file a run wrote?',
    ],
  );
}

/** Refuses a parsed record (`at`: "file:line") nested deeper than an items file may be. */
export function refuseDeepRecord(value: unknown, at: string): void {
  if (!nestedTooDeeply(value)) return;
  throw new InputError(`${at}: nested too deeply`, [
    `lists and objects in a record may be nested at most ${MAX_NESTING} levels deep`,
  ]);
}

/**
 * Size limits on every file a user gives (docs/security.md lists them). A file past its limit is
 * bad input, said before it is read: on a shared runner a pull request must not be able to
 * fill the machine's memory or hold it for minutes with a config, items or catalogue file.
 * Each limit is far above what the file is for: MMLU-Pro's 12,032 items are about 7 MB of
 * JSON Lines.
 */
import { InputError } from '../errors.js';
import { readUserFile } from '../files/userFile.js';

const MiB = 1024 * 1024;

/** model-gate.yml (and a simulator scenario). */
export const MAX_CONFIG_BYTES = 1 * MiB;
/** The persona catalogue (YAML). */
export const MAX_CATALOGUE_BYTES = 8 * MiB;
/** Items in YAML (.yml, .yaml): the YAML parser holds the whole document in memory. */
export const MAX_YAML_ITEMS_BYTES = 8 * MiB;
/**
 * Items in JSON Lines (.jsonl) or a JSON array (.json): read with the JSON parser. With
 * MAX_ITEMS, the largest file allowed validates in under 500 MB (bench/inputs.ts).
 */
export const MAX_JSON_ITEMS_BYTES = 64 * MiB;
/**
 * Items in one file, whatever its format: the memory of a validation grows with the number of
 * items more than with the bytes (437,000 tiny items in 32 MiB took 892 MB). Twice the largest
 * item set the benchmarks generate (50,000), eight times MMLU-Pro's 12,032.
 */
export const MAX_ITEMS = 100_000;
/** A `module` grader's JavaScript file, read to be fingerprinted before it is imported. */
export const MAX_MODULE_BYTES = 8 * MiB;
/** The nightly history (one line per night: decades fit). */
export const MAX_HISTORY_BYTES = 64 * MiB;
/** A previous report.json read back (nightly comparison). */
export const MAX_REPORT_BYTES = 256 * MiB;
/** One line of any of these files. */
export const MAX_LINE_BYTES = 1 * MiB;
/** Levels of lists and mappings inside one another in a YAML file. */
export const MAX_NESTING = 64;
/** Values YAML aliases may add to a document: at least this many… */
export const MIN_ALIAS_VALUES = 100_000;
/** …or this many per byte of the file, when that is more. */
export const ALIAS_VALUES_PER_BYTE = 1 / 8;

/** "8 MiB", "1.5 MiB", "312 kB": a size as a limit message says it. */
export function formatSize(bytes: number): string {
  if (bytes >= MiB) return `${Number((bytes / MiB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} kB`;
  return `${bytes} bytes`;
}

/**
 * The bytes of `file` (null when it is missing), read by the one reader of user files
 * (src/files/userFile.ts: no link out of the working folder, no pipe or device) and refused
 * past `limit`: on the size the file reports before a byte is read, and on the bytes counted
 * while reading. `what` names the file in the message ("persona catalogue"); `hint` says what
 * to do.
 */
export function readLimitedFile(
  file: string,
  shownAs: string,
  limit: number,
  what: string,
  hint?: string,
): Buffer | null {
  return readUserFile(file, shownAs, what, {
    bytes: limit,
    refuse: (size) =>
      new InputError(
        `${shownAs}: ${size === null ? `more than ${formatSize(limit)}` : formatSize(size)} is more than a ${what} may hold (${formatSize(limit)})`,
        [hint ?? `keep the ${what} under ${formatSize(limit)}`],
      ),
  });
}

/** Refuses a text with a line longer than MAX_LINE_BYTES, naming the first such line. */
export function refuseLongLines(text: string, shownAs: string): void {
  // UTF-8 takes at most 3 bytes per UTF-16 unit: shorter lines cannot be too long.
  if (text.length <= MAX_LINE_BYTES / 3) return;
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    const end = text.indexOf('\n', start);
    const stop = end === -1 ? text.length : end;
    if (stop - start > MAX_LINE_BYTES / 3) {
      const bytes = Buffer.byteLength(text.slice(start, stop), 'utf8');
      if (bytes > MAX_LINE_BYTES) {
        throw new InputError(
          `${shownAs}:${line}: a line of ${formatSize(bytes)}; a line may hold at most ${formatSize(MAX_LINE_BYTES)}`,
          [
            'no setting, item or prompt needs a line this long: is it the right file? (YAML writes a long text over several lines with ">" or "|")',
          ],
        );
      }
    }
    if (end === -1) break;
    start = end + 1;
    line++;
  }
}

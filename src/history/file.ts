/**
 * The history file: JSON Lines, one line per model and night (a UTC day), written by each
 * nightly run; a second run on one night replaces that night's line. Read
 * strictly (a damaged line is named with its number, exit 2) so a trend is never drawn from
 * a file that silently lost nights.
 */
import { MAX_HISTORY_BYTES, readLimitedFile } from '../config/limits.js';
import { InputError } from '../errors.js';
import { refuseLink, writeFileAtomic } from '../files/safeWrite.js';
import { type HistoryEntry, historyEntrySchema, oneLinePerNight } from './entry.js';
import { errorMessage } from '../text/format.js';
import type { CheckList } from '../checks/list.js';

export function parseHistory(text: string, file: string, checks: CheckList): HistoryEntry[] {
  const schema = historyEntrySchema(checks);
  const entries: HistoryEntry[] = [];
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const where = `${file} line ${index + 1}`;
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new InputError(`${where}: not JSON; expected one night of a model-gate history`, [
        'each line is a JSON object written by a nightly run; remove or repair the damaged line',
      ]);
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      throw new InputError(
        `${where}: not a model-gate history line`,
        parsed.error.issues
          .slice(0, 5)
          .map((issue) => `${issue.path.join('.') || '(line)'}: ${issue.message}`),
      );
    }
    entries.push(parsed.data);
  }
  return entries;
}

/**
 * The nights recorded so far; none when the file does not exist yet (the first night). A
 * symbolic link at its place is refused: the history is rewritten, never written through one.
 */
export async function readHistory(file: string, checks: CheckList): Promise<HistoryEntry[]> {
  return parseHistory(await readHistoryText(file), file, checks);
}

async function readHistoryText(file: string): Promise<string> {
  // Rewritten in place each night: a link at its place is refused, never read or followed.
  refuseLink(file, 'history');
  try {
    const bytes = readLimitedFile(
      file,
      `history ${file}`,
      MAX_HISTORY_BYTES,
      'history',
      'start a new history file (output.history) and keep this one aside',
    );
    return bytes === null ? '' : bytes.toString('utf8');
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`cannot read the history ${file}: ${errorMessage(error)}`);
  }
}

/**
 * Adds tonight's line, replacing a line of the same model and night. The file is written anew
 * beside itself and renamed into place: an interrupted run or a full disk leaves it as it was
 * or complete.
 */
export async function recordNight(
  file: string,
  entry: HistoryEntry,
  checks: CheckList,
): Promise<void> {
  const nights = oneLinePerNight([...(await readHistory(file, checks)), entry]);
  writeFileAtomic(file, nights.map((night) => `${JSON.stringify(night)}\n`).join(''));
}

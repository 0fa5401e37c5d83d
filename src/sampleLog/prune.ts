/**
 * Pruning a sample log kept across pull requests (actions/cache): only the records of the
 * models a config measures are kept, so a cache does not grow by every candidate ever tried.
 *
 * The pruned log is written beside its target and renamed over it (src/files/safeWrite.ts): a
 * crash at any point leaves either the old file or the new one, whole, and a link at the
 * target is replaced, never written through. Lines are copied as written, never re-serialised.
 */
import { openAtomicFile } from '../files/safeWrite.js';
import { streamLog } from './read.js';

export interface PruneResult {
  /** Call and game records copied. */
  kept: number;
  /** Call and game records of other models, left out. */
  dropped: number;
  /** Models whose records were left out, sorted. */
  droppedModels: string[];
  warnings: string[];
}

/**
 * Copies `source` to `target` keeping the records of `models` (and the run records that name
 * one of them). `source` and `target` may be the same file.
 */
export async function pruneLog(
  source: string,
  target: string,
  models: readonly string[],
): Promise<PruneResult> {
  const wanted = new Set(models);
  const file = openAtomicFile(target);
  const result: PruneResult = { kept: 0, dropped: 0, droppedModels: [], warnings: [] };
  const dropped = new Set<string>();
  let buffer = '';
  const write = (line: string): void => {
    buffer += `${line}\n`;
    if (buffer.length >= 1 << 20) flush();
  };
  const flush = (): void => {
    file.write(buffer);
    buffer = '';
  };
  try {
    result.warnings = await streamLog(source, {
      record(record, line) {
        if (wanted.has(record.model)) {
          result.kept++;
          write(line);
          return;
        }
        result.dropped++;
        dropped.add(record.model);
      },
      run(run, line) {
        if (run.models.some((m) => wanted.has(m.model))) write(line);
      },
    });
    flush();
  } catch (error) {
    file.abort();
    throw error;
  }
  file.commit();
  result.droppedModels = [...dropped].sort();
  return result;
}

/** The log line that says what pruning did. */
export function pruneNote(result: PruneResult, file: string): string {
  if (result.dropped === 0) return `${file}: ${result.kept} records kept, none of other models`;
  const models = result.droppedModels.join(', ');
  return `${file}: dropped ${result.dropped} records of models not in this config (${models}); ${result.kept} kept. --keep-history keeps them`;
}

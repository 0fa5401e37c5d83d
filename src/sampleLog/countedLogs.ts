/**
 * The logs of an analysis, read twice rather than held: the rule of counted.ts (the latest
 * record per identity, a failure never undoing an answer, one digest per model) is applied
 * once, here, and the records that count are then handed over one at a time, in log order.
 *
 * The first pass parses and checks every line and keeps, per identity, only where its record
 * that counts starts (a byte position), which model and digest it is of, and whether it is
 * final: a table of a few typed arrays (counted.ts, about 17 bytes a slot), not the records. Only
 * when the whole log is read is a record known to count (a retry further on replaces an
 * earlier error; a later run decides a model's digest), so the second pass reads the lines at
 * the positions kept, and only those are parsed again; not checked again, as the files are
 * the ones the first pass checked (same size and modification time, or the analysis stops).
 */
import { closeSync, openSync, type Stats, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { digestsOfRuns, IdentityTable, type OtherWeights, recordIdentity } from './counted.js';
import { eachLineAt, lineAt, lineText, streamLog } from './read.js';
import type { RunInfoRecord, SampleRecord } from './schema.js';

export interface CountedLogs {
  /** Run provenance records, in file order. */
  runs: RunInfoRecord[];
  warnings: string[];
  /** Records of a model left out because they are of other weights than the current ones. */
  otherWeights: OtherWeights[];
  /** How many records count. */
  count: number;
  /**
   * True when every record read counts (no measurement twice, one digest per model): the
   * records the first pass gave to `first` are then those `each` would give, in the same order.
   */
  everyRecordCounts: boolean;
  /** Reads the logs again, giving each record that counts to `visit`, in log order. */
  each(visit: (record: SampleRecord) => void): Promise<void>;
}

/**
 * Reads `paths` as one log (later files after earlier ones). A model's current digest is the
 * one the latest run record that names it found, else that of its latest record that counts.
 * `first` is given every record of the first pass, in log order, whether it counts or not.
 */
export async function readCountedLogs(
  paths: readonly string[],
  first?: (record: SampleRecord) => void,
): Promise<CountedLogs> {
  const files = new LogFiles(paths);
  const { runs, warnings, positions, otherWeights, read } = await survey(paths, files, first);
  return {
    runs,
    warnings,
    otherWeights,
    count: positions.length,
    // The records that count are some of those read: as many means all of them.
    everyRecordCounts: positions.length === read,
    each: (visit) => files.visitAt(positions, visit),
  };
}

/**
 * The first pass: every line checked, the records that count found. Its table is dropped when
 * it returns (a function of its own, so that no closure of the second pass keeps it).
 */
async function survey(
  paths: readonly string[],
  files: LogFiles,
  first: ((record: SampleRecord) => void) | undefined,
) {
  const table = new IdentityTable((at, identity) => files.identityAt(at) === identity);
  const runs: RunInfoRecord[] = [];
  const warnings: string[] = [];
  let read = 0;
  try {
    for (const [i, file] of paths.entries()) {
      const base = files.base(i);
      warnings.push(
        ...(await streamLog(file, {
          record: (record, _line, at) => {
            table.add(record, base + at);
            read++;
            first?.(record);
          },
          run: (run) => runs.push(run),
        })),
      );
    }
  } finally {
    files.close();
  }
  return { runs, warnings, read, ...table.counted(digestsOfRuns(runs)) };
}

/** The files read as one: a byte position is a file's base plus the offset within it. */
class LogFiles {
  private readonly bases: number[] = [];
  private readonly fds = new Map<number, number>();
  private readonly held = { buffer: Buffer.alloc(4096) };
  /** Each file's size and modification time when the first pass began. */
  private readonly versions: string[];

  constructor(private readonly paths: readonly string[]) {
    let base = 0;
    this.versions = paths.map(versionOf);
    for (const file of paths) {
      this.bases.push(base);
      // Past the end of the file: a file that grows between the passes never overlaps the next.
      base += sizeOf(file) + 1;
    }
  }

  base(i: number): number {
    return this.bases[i] as number;
  }

  /** The identity of the record whose line starts at position `at` (read back from its file). */
  identityAt(at: number): string {
    let i = this.bases.length - 1;
    while (i > 0 && (this.bases[i] as number) > at) i--;
    let fd = this.fds.get(i);
    if (fd === undefined) {
      fd = openSync(this.paths[i] as string, 'r');
      this.fds.set(i, fd);
    }
    const line = lineAt(fd, at - (this.bases[i] as number), this.held);
    return recordIdentity(JSON.parse(line) as SampleRecord);
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Parses the lines that start at `positions` (ascending) and gives their records to `visit`. */
  async visitAt(positions: Float64Array, visit: (record: SampleRecord) => void): Promise<void> {
    let next = 0;
    for (const [i, file] of this.paths.entries()) {
      if (versionOf(file) !== this.versions[i]) changed(file);
      const base = this.base(i);
      await eachLineAt(file, (buffer, start, end, at) => {
        if (base + at !== positions[next]) return;
        next++;
        visit(JSON.parse(lineText(buffer, start, end)) as SampleRecord);
      });
    }
    if (next !== positions.length) changed(this.paths.join(', '));
  }
}

function changed(files: string): never {
  throw new InputError(`${files}: changed while it was analysed`, [
    'analyse a log no run is writing to',
  ]);
}

function statsOf(file: string): Stats | null {
  try {
    return statSync(file);
  } catch {
    // A missing file is named by the reader, with its own message.
    return null;
  }
}

const sizeOf = (file: string): number => statsOf(file)?.size ?? 0;

function versionOf(file: string): string {
  const stats = statsOf(file);
  return stats ? `${stats.size} ${stats.mtimeMs}` : 'missing';
}

/**
 * The logs of an analysis, read twice rather than held: the rule of counted.ts (the latest
 * record per identity, a failure never undoing an answer, one digest per model) is applied
 * once, here, and the records that count are then handed over one at a time, in log order.
 *
 * The first pass parses and checks every line and keeps, per identity, only where its record
 * that counts starts (a byte position), which model and digest it is of, and whether it is
 * final: a table of a few typed arrays, about 15 bytes a slot, instead of the records. Only
 * when the whole log is read is a record known to count (a retry further on replaces an
 * earlier error; a later run decides a model's digest), so the second pass reads the lines at
 * the positions kept, and only those are parsed again.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { InputError } from '../errors.js';
import { digestsOfRuns, isFinal, type OtherWeights, recordIdentity } from './counted.js';
import { readRecord } from './formats.js';
import { eachLineAt, lineText, streamLog } from './read.js';
import type { RunInfoRecord, SampleRecord } from './schema.js';

export interface CountedLogs {
  /** Run provenance records, in file order. */
  runs: RunInfoRecord[];
  warnings: string[];
  /** Records of a model left out because they are of other weights than the current ones. */
  otherWeights: OtherWeights[];
  /** How many records count. */
  count: number;
  /** Reads the logs again, giving each record that counts to `visit`, in log order. */
  each(visit: (record: SampleRecord) => void): Promise<void>;
}

/**
 * Reads `paths` as one log (later files after earlier ones). A model's current digest is the
 * one the latest run record that names it found, else that of its latest record that counts.
 */
export async function readCountedLogs(paths: readonly string[]): Promise<CountedLogs> {
  const files = new LogFiles(paths);
  const { runs, warnings, positions, otherWeights } = await survey(paths, files);
  return {
    runs,
    warnings,
    otherWeights,
    count: positions.length,
    each: (visit) => files.visitAt(positions, visit),
  };
}

/**
 * The first pass: every line checked, the records that count found. Its table is dropped when
 * it returns (a function of its own, so that no closure of the second pass keeps it).
 */
async function survey(paths: readonly string[], files: LogFiles) {
  const table = new IdentityTable((at, identity) => files.identityAt(at) === identity);
  const runs: RunInfoRecord[] = [];
  const warnings: string[] = [];
  try {
    for (const [i, file] of paths.entries()) {
      const base = files.base(i);
      warnings.push(
        ...(await streamLog(file, {
          record: (record, _line, at) => table.add(record, base + at),
          run: (run) => runs.push(run),
        })),
      );
    }
  } finally {
    files.close();
  }
  return { runs, warnings, ...table.counted(digestsOfRuns(runs)) };
}

/** The files read as one: a byte position is a file's base plus the offset within it. */
class LogFiles {
  private readonly bases: number[] = [];
  private readonly fds = new Map<number, number>();
  private buffer = Buffer.alloc(4096);

  constructor(private readonly paths: readonly string[]) {
    let base = 0;
    for (const file of paths) {
      this.bases.push(base);
      // Past the end of the file: a file that grows between the passes never overlaps the next.
      base += safeSize(file) + 1;
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
    const offset = at - (this.bases[i] as number);
    for (;;) {
      const size = readSync(fd, this.buffer, 0, this.buffer.length, offset);
      const end = this.buffer.indexOf(0x0a);
      if ((end >= 0 && end < size) || size < this.buffer.length) {
        const line = lineText(this.buffer, 0, end >= 0 && end < size ? end : size);
        return recordIdentity(JSON.parse(line) as SampleRecord);
      }
      this.buffer = Buffer.alloc(this.buffer.length * 4);
    }
  }

  close(): void {
    for (const fd of this.fds.values()) closeSync(fd);
    this.fds.clear();
  }

  /** Parses the lines that start at `positions` (ascending) and gives their records to `visit`. */
  async visitAt(positions: Float64Array, visit: (record: SampleRecord) => void): Promise<void> {
    let next = 0;
    for (const [i, file] of this.paths.entries()) {
      const base = this.base(i);
      await eachLineAt(file, (buffer, start, end, at) => {
        if (base + at !== positions[next]) return;
        next++;
        const read = readRecord(JSON.parse(lineText(buffer, start, end)) as unknown);
        if ('problem' in read || read.record.kind === 'run') {
          throw new InputError(`${file}: changed while it was analysed`, [
            'analyse a log no run is writing to',
          ]);
        }
        visit(read.record);
      });
    }
    if (next !== positions.length) {
      throw new InputError(`${this.paths.join(', ')}: changed while it was analysed`, [
        'analyse a log no run is writing to',
      ]);
    }
  }
}

function safeSize(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    // A missing file is named by the reader, with its own message.
    return 0;
  }
}

/**
 * Per identity, where its record that counts starts, by open addressing over a 32-bit hash of
 * the identity. Two identities with the same hash on one probe path are told apart by reading
 * the earlier record back (`same`), so the table decides as the identity strings would, at a
 * few bytes a record.
 */
class IdentityTable {
  private hashes = new Int32Array(INITIAL_SLOTS);
  private positions = new Float64Array(INITIAL_SLOTS);
  /** 0: empty; else 1 + the index of the record's model and digest in `pairs`. */
  private pairOf = new Int32Array(INITIAL_SLOTS);
  private finals = new Uint8Array(INITIAL_SLOTS);
  private used = 0;
  private readonly pairs: { model: string; digest: string | null }[] = [];
  private readonly pairIds = new Map<string, number>();

  constructor(private readonly same: (at: number, identity: string) => boolean) {}

  add(record: SampleRecord, at: number): void {
    const identity = recordIdentity(record);
    const hash = hashOf(identity);
    const mask = this.hashes.length - 1;
    let slot = hash & mask;
    while (this.pairOf[slot] !== 0) {
      if (this.hashes[slot] === hash && this.same(this.positions[slot] as number, identity)) {
        // A failure after an answer never undoes the answer.
        if (!isFinal(record) && this.finals[slot] === 1) return;
        this.set(slot, hash, at, record);
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.set(slot, hash, at, record);
    if (++this.used * 5 > this.hashes.length * 4) this.grow();
  }

  private set(slot: number, hash: number, at: number, record: SampleRecord): void {
    this.hashes[slot] = hash;
    this.positions[slot] = at;
    this.pairOf[slot] = 1 + this.pairId(record.model, record.digest);
    this.finals[slot] = isFinal(record) ? 1 : 0;
  }

  private pairId(model: string, digest: string | null): number {
    const id = `${model}\n${digest}`;
    let n = this.pairIds.get(id);
    if (n === undefined) {
      n = this.pairs.length;
      this.pairs.push({ model, digest });
      this.pairIds.set(id, n);
    }
    return n;
  }

  private grow(): void {
    const { hashes, positions, pairOf, finals } = this;
    const size = hashes.length * 2;
    this.hashes = new Int32Array(size);
    this.positions = new Float64Array(size);
    this.pairOf = new Int32Array(size);
    this.finals = new Uint8Array(size);
    const mask = size - 1;
    for (let old = 0; old < hashes.length; old++) {
      if (pairOf[old] === 0) continue;
      let slot = (hashes[old] as number) & mask;
      while (this.pairOf[slot] !== 0) slot = (slot + 1) & mask;
      this.hashes[slot] = hashes[old] as number;
      this.positions[slot] = positions[old] as number;
      this.pairOf[slot] = pairOf[old] as number;
      this.finals[slot] = finals[old] as number;
    }
  }

  /**
   * The positions of the records that count under each model's current digest, ascending,
   * and what other weights' records were left out (in the order their first one comes).
   */
  counted(runDigests: ReadonlyMap<string, string | null>): {
    positions: Float64Array;
    otherWeights: OtherWeights[];
  } {
    const { pairOf, positions, pairs } = this;
    // A model no run record names takes the digest of its latest record.
    const latest = new Map<string, { at: number; digest: string | null }>();
    for (let slot = 0; slot < pairOf.length; slot++) {
      if (pairOf[slot] === 0) continue;
      const pair = pairs[(pairOf[slot] as number) - 1] as (typeof pairs)[number];
      const at = positions[slot] as number;
      const seen = latest.get(pair.model);
      if (!seen || seen.at < at) latest.set(pair.model, { at, digest: pair.digest });
    }
    const currentOf = (model: string): string | null =>
      runDigests.has(model)
        ? (runDigests.get(model) ?? null)
        : (latest.get(model)?.digest ?? null);
    const current = pairs.map((pair) => pair.digest === currentOf(pair.model));
    const left = pairs.map(() => ({ records: 0, first: Number.POSITIVE_INFINITY }));
    let kept = 0;
    for (let slot = 0; slot < pairOf.length; slot++) {
      const p = (pairOf[slot] as number) - 1;
      if (p < 0) continue;
      if (current[p]) kept++;
      else {
        const entry = left[p] as (typeof left)[number];
        entry.records++;
        entry.first = Math.min(entry.first, positions[slot] as number);
      }
    }
    const counting = new Float64Array(kept);
    let n = 0;
    for (let slot = 0; slot < pairOf.length; slot++) {
      const p = (pairOf[slot] as number) - 1;
      if (p >= 0 && current[p]) counting[n++] = positions[slot] as number;
    }
    counting.sort();
    const otherWeights = pairs
      .map((pair, p) => ({ pair, ...(left[p] as (typeof left)[number]) }))
      .filter((entry) => entry.records > 0)
      .sort((a, b) => a.first - b.first)
      .map(({ pair, records }) => ({
        model: pair.model,
        digest: pair.digest,
        records,
        current: currentOf(pair.model),
      }));
    return { positions: counting, otherWeights };
  }
}

const INITIAL_SLOTS = 1 << 10;

/** FNV-1a over the identity's characters. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash | 0;
}

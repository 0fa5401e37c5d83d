/**
 * The lookup resume planning makes: the records that count of one unit (check, model, digest
 * and unit key; a maze decision's key extends its game's with "/…"). Built in one pass over the
 * records a streamed read kept; a unit of one record (a churn sample, most of a large plan)
 * costs one map entry, no list.
 */
import { closeSync, openSync } from 'node:fs';
import { latestRecords } from './counted.js';
import { endsWithNewline, lineAt, streamLog } from './read.js';
import type { SampleRecord } from './schema.js';

type Found = SampleRecord | SampleRecord[];

export class ResumeIndex implements RecordLookup {
  private readonly groups = new Map<string, Map<string, Found>>();

  constructor(records: Iterable<SampleRecord> = []) {
    for (const record of records) this.add(record);
  }

  add(record: SampleRecord): void {
    fileUnderUnit(this.groups, record, record);
  }

  /** The unit's records, in the order they were added. */
  get(check: string, model: string, digest: string | null, key: string): SampleRecord[] {
    const found = this.groups.get(groupKey(check, model, digest))?.get(key);
    if (found === undefined) return [];
    return Array.isArray(found) ? found : [found];
  }
}

/**
 * Files `value` under the record's group (check, model, digest), at its unit key and at each
 * prefix of it ending before a "/": a decision belongs to its game. One value stays unwrapped,
 * so a unit of one record costs one map entry and no list.
 */
function fileUnderUnit<T>(
  groups: Map<string, Map<string, T | T[]>>,
  record: SampleRecord,
  value: T,
): void {
  const group = groupKey(record.check, record.model, record.digest);
  let byKey = groups.get(group);
  if (!byKey) {
    byKey = new Map();
    groups.set(group, byKey);
  }
  for (let key = record.key; ; ) {
    const found = byKey.get(key);
    if (found === undefined) byKey.set(key, value);
    else if (Array.isArray(found)) found.push(value);
    else byKey.set(key, [found, value]);
    const cut = key.lastIndexOf('/');
    if (cut < 0) break;
    key = key.slice(0, cut);
  }
}

function groupKey(check: string, model: string, digest: string | null): string {
  return JSON.stringify([check, model, digest]);
}

/** A unit's records, found by check, model, digest and unit key (see ResumeIndex.get). */
export interface RecordLookup {
  get(check: string, model: string, digest: string | null, key: string): SampleRecord[];
}

/**
 * The resume lookup of a log on disk: per check, model, digest and unit key (and each of its
 * prefixes, as ResumeIndex), the byte offsets of the lines. A unit's records are read again
 * from the file when it asks, and reduced to the ones that count then (counted.ts: the rule
 * only ever compares records of one key). A run over a log of 150,000 records holds keys and
 * offsets, not the records.
 */
export class LogIndex implements RecordLookup {
  private readonly groups = new Map<string, Map<string, number | number[]>>();
  private fd: number | null = null;
  private readonly held = { buffer: Buffer.alloc(4096) };

  constructor(private readonly file: string) {}

  add(record: SampleRecord, at: number): void {
    fileUnderUnit(this.groups, record, at);
  }

  /** The unit's records that count, in log order. */
  get(check: string, model: string, digest: string | null, key: string): SampleRecord[] {
    const found = this.groups.get(groupKey(check, model, digest))?.get(key);
    if (found === undefined) return [];
    // One record is the one that counts; several are reduced by the rule.
    if (!Array.isArray(found)) return [this.read(found)];
    return latestRecords(found.map((at) => this.read(at)));
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  /** The record whose line starts at `at` (it was checked when the log was indexed). */
  private read(at: number): SampleRecord {
    this.fd ??= openSync(this.file, 'r');
    return JSON.parse(lineAt(this.fd, at, this.held)) as SampleRecord;
  }
}

/**
 * Indexes a log for resume (see LogIndex); returns its warnings (a cut-short last line). A
 * last line without its newline is left out even when it reads as a record: opening the log
 * to append removes it (write.ts), so its unit is asked again.
 */
export async function indexSampleLog(
  file: string,
): Promise<{ index: LogIndex; warnings: string[] }> {
  const index = new LogIndex(file);
  let last: { record: SampleRecord; at: number } | null = null;
  const warnings = await streamLog(file, {
    record: (record, _line, at) => {
      if (last) index.add(last.record, last.at);
      last = { record, at };
    },
    run: () => {},
  });
  const held = last as { record: SampleRecord; at: number } | null;
  if (held && (await endsWithNewline(file))) index.add(held.record, held.at);
  return { index, warnings };
}

/**
 * The one rule for which record counts, used by resume and by every check's analysis.
 *
 * - Records with the same identity — check, model, digest, unit key, sample, kind, request
 *   options, prompt hash (and what the record's check adds, `RecordFormat.identity`: churn's
 *   temperature its letter probabilities are read at) — describe the same outcome; the latest
 *   one in log order counts
 *   (a retried error or timeout is replaced by its retry; with several logs, later files win).
 *   Errors and timeouts are not final: resume asks them again, and the answer replaces them.
 * - One model is measured under one digest per report: the current one (the digest the latest
 *   run found, else that of the model's latest record). Records of other weights are left out
 *   and said so, never mixed in.
 * - Records are returned in log order of the records that count, so a maze game continued
 *   after a failed move keeps the order its decisions were played in.
 */
import { ownIdentity } from './formats.js';
import type { RunInfoRecord, SampleRecord } from './schema.js';

export function recordIdentity(record: SampleRecord): string {
  const call = record.kind === 'call' ? record : null;
  const o = call?.options;
  return JSON.stringify([
    record.check,
    record.model,
    record.digest,
    record.key,
    call ? call.sample : null,
    record.kind,
    o ? [o.temperature, o.seed, o.num_ctx, o.num_predict, o.think] : null,
    record.prompt_sha256,
    ownIdentity(record),
  ]);
}

/** True for an outcome a rerun keeps; errors and timeouts are asked again. */
export function isFinal(record: SampleRecord): boolean {
  return record.kind !== 'call' || record.status === 'ok' || record.status === 'invalid';
}

/** The parts of `recordIdentity` besides check, model and key, compared without a string. */
function sameIdentity(a: SampleRecord, b: SampleRecord): boolean {
  if (a.kind !== b.kind || a.digest !== b.digest || a.prompt_sha256 !== b.prompt_sha256) {
    return false;
  }
  if (a.kind !== 'call' || b.kind !== 'call') return true;
  const o = a.options;
  const p = b.options;
  return (
    (a.sample ?? null) === (b.sample ?? null) &&
    (o.temperature ?? null) === (p.temperature ?? null) &&
    (o.seed ?? null) === (p.seed ?? null) &&
    (o.num_ctx ?? null) === (p.num_ctx ?? null) &&
    (o.num_predict ?? null) === (p.num_predict ?? null) &&
    (o.think ?? null) === (p.think ?? null) &&
    ownIdentity(a) === ownIdentity(b)
  );
}

/**
 * Applies the rule record by record, in log order, holding only the records that count so far:
 * a log is reduced while it is read, never held whole. Records are found again by check, model
 * and unit key through an open-addressing table of positions (a typed array): no map entry and
 * no identity string per record, so reducing 150,000 records adds a megabyte, not the tens a
 * hash map of that size and the copies its growth leaves behind would.
 */
export class LatestRecords {
  /** Kept records in log order; a replaced one leaves a hole (null). */
  private readonly kept: (SampleRecord | null)[] = [];
  /** Slots: 0 empty, else 1 + a position in `kept` of a record of that check, model and key. */
  private slots = new Int32Array(1 << 10);
  private used = 0;

  add(record: SampleRecord): void {
    const at = this.kept.length;
    const mask = this.slots.length - 1;
    let slot = hashOf(record) & mask;
    for (let held = this.slots[slot] as number; held !== 0; held = this.slots[slot] as number) {
      const before = this.kept[held - 1] as SampleRecord;
      if (sameUnit(before, record) && sameIdentity(before, record)) {
        // A failure after an answer never undoes the answer.
        if (!isFinal(record) && isFinal(before)) return;
        // The answer moves to the end: the order kept is the log order of the records kept.
        this.kept[held - 1] = null;
        this.kept.push(record);
        this.slots[slot] = at + 1;
        return;
      }
      slot = (slot + 1) & mask;
    }
    this.kept.push(record);
    this.slots[slot] = at + 1;
    if (++this.used * 2 > this.slots.length) this.grow();
  }

  /** Twice the slots, every held position placed again (a replaced record is never in a slot). */
  private grow(): void {
    const old = this.slots;
    this.slots = new Int32Array(old.length * 2);
    const mask = this.slots.length - 1;
    for (const held of old) {
      if (held === 0) continue;
      let slot = hashOf(this.kept[held - 1] as SampleRecord) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = held;
    }
  }

  records(): SampleRecord[] {
    return this.kept.filter((record): record is SampleRecord => record !== null);
  }
}

function sameUnit(a: SampleRecord, b: SampleRecord): boolean {
  return a.key === b.key && a.model === b.model && a.check === b.check;
}

/** A hash of check, model and unit key (FNV-1a over their characters). */
function hashOf(record: SampleRecord): number {
  let hash = 0x811c9dc5;
  for (const text of [record.check, record.model, record.key]) {
    for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    hash = Math.imul(hash ^ 0x2f, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * The record that counts per identity — the latest final one, else the latest — in log order
 * of the records kept. A failure after an answer (overlapping shards, a log given twice) never
 * undoes the answer.
 */
export function latestRecords(records: readonly SampleRecord[]): SampleRecord[] {
  const latest = new LatestRecords();
  for (const record of records) latest.add(record);
  return latest.records();
}

/** Records of a model under weights other than the current ones, per digest. */
export interface OtherWeights {
  model: string;
  digest: string | null;
  records: number;
  /** The digest the report uses instead. */
  current: string | null;
}

export interface CountedRecords {
  records: SampleRecord[];
  otherWeights: OtherWeights[];
}

/** The digest each model had in the latest run record that names it. */
export function digestsOfRuns(runs: readonly RunInfoRecord[]): Map<string, string | null> {
  const digests = new Map<string, string | null>();
  for (const run of runs) for (const m of run.models) digests.set(m.model, m.digest);
  return digests;
}

/**
 * The records that count: the latest per identity, under each model's current digest.
 * `current` gives a model's current digest (a run's, or the latest run record's); a model it
 * does not name takes the digest of its latest record.
 */
export function countedRecords(
  records: readonly SampleRecord[],
  current: ReadonlyMap<string, string | null> = new Map(),
): CountedRecords {
  const latest = latestRecords(records);
  const digests = new Map(current);
  for (const record of latest) {
    if (!current.has(record.model)) digests.set(record.model, record.digest);
  }
  const other = new Map<string, OtherWeights>();
  const kept = latest.filter((record) => {
    const digest = digests.get(record.model) ?? null;
    if (record.digest === digest) return true;
    const id = JSON.stringify([record.model, record.digest]);
    const entry = other.get(id) ?? {
      model: record.model,
      digest: record.digest,
      records: 0,
      current: digest,
    };
    entry.records++;
    other.set(id, entry);
    return false;
  });
  return { records: kept, otherWeights: [...other.values()] };
}

const shortDigest = (digest: string | null): string =>
  digest === null ? 'unknown' : digest.replace(/^sha256:/, '').slice(0, 12);

/** The report note for records left out because they came from other weights. */
export function otherWeightsNote(other: OtherWeights): string {
  const n = other.records === 1 ? '1 record' : `${other.records} records`;
  return `${n} of ${other.model} from earlier weights (digest ${shortDigest(other.digest)}) left out: this report uses digest ${shortDigest(other.current)} only, never two versions of a model`;
}

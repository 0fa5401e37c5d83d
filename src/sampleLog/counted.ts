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
import { isCall } from './schema.js';

export function recordIdentity(record: SampleRecord): string {
  const call = isCall(record) ? record : null;
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
  return !isCall(record) || record.status === 'ok' || record.status === 'invalid';
}

/**
 * The rule, record by record in log order: per identity, the position of its record that
 * counts (a byte position in a log, or an index in a list), by open addressing over a 32-bit
 * hash of the identity. Two identities with the same hash on one probe path are told apart by
 * looking at the earlier record again (`same`), so the table decides as the identity strings
 * would, at about 17 bytes a record and without holding the records.
 */
export class IdentityTable {
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

  /** The positions of the records that count, ascending (log order). */
  kept(): Float64Array {
    const kept = new Float64Array(this.used);
    let n = 0;
    for (let slot = 0; slot < this.pairOf.length; slot++) {
      if (this.pairOf[slot] !== 0) kept[n++] = this.positions[slot] as number;
    }
    return kept.sort();
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
      runDigests.has(model) ? (runDigests.get(model) ?? null) : (latest.get(model)?.digest ?? null);
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

/**
 * The record that counts per identity — the latest final one, else the latest — in log order
 * of the records kept. A failure after an answer (overlapping shards, a log given twice) never
 * undoes the answer.
 */
export function latestRecords(records: readonly SampleRecord[]): SampleRecord[] {
  const table = new IdentityTable(
    (at, identity) => recordIdentity(records[at] as SampleRecord) === identity,
  );
  for (let at = 0; at < records.length; at++) table.add(records[at] as SampleRecord, at);
  return Array.from(table.kept(), (at) => records[at] as SampleRecord);
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

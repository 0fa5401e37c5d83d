/**
 * The one rule for which record counts, used by resume and by every check's analysis.
 *
 * - Records with the same identity — check, model, digest, unit key, sample, kind, request
 *   options, prompt hash (and the temperature letter probabilities are read at) — describe the same outcome; the latest one in log order counts
 *   (a retried error or timeout is replaced by its retry; with several logs, later files win).
 *   Errors and timeouts are not final: resume asks them again, and the answer replaces them.
 * - One model is measured under one digest per report: the current one (the digest the latest
 *   run found, else that of the model's latest record). Records of other weights are left out
 *   and said so, never mixed in.
 * - Records are returned in log order of the records that count, so a maze game continued
 *   after a failed move keeps the order its decisions were played in.
 */
import { byCheckAndModel } from './byCheckAndModel.js';
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
    // Letter probabilities read at another temperature are another measurement.
    call?.check === 'churn' ? (call.estimate_temperature ?? null) : null,
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
    estimateTemperature(a) === estimateTemperature(b)
  );
}

function estimateTemperature(record: SampleRecord): number | null {
  return record.kind === 'call' && record.check === 'churn'
    ? (record.estimate_temperature ?? null)
    : null;
}

/**
 * Applies the rule record by record, in log order, holding only the records that count so far:
 * a log is reduced while it is read, never held whole. Records are found again by check, model
 * and unit key (strings every record already holds), so the reduction adds one map entry per
 * unit key and no identity string per record.
 */
export class LatestRecords {
  /** Kept records in log order; a replaced one leaves a hole (null). */
  private readonly kept: (SampleRecord | null)[] = [];
  /** Per check and model, per unit key: positions in `kept` (one, most often). */
  private readonly byKey = new Map<string, Map<string, Map<string, number | number[]>>>();

  add(record: SampleRecord): void {
    const byKey = this.keysOf(record);
    const found = byKey.get(record.key);
    const at = this.kept.length;
    if (found === undefined) {
      byKey.set(record.key, at);
      this.kept.push(record);
      return;
    }
    const positions = typeof found === 'number' ? [found] : found;
    for (let i = 0; i < positions.length; i++) {
      const before = this.kept[positions[i] as number];
      if (!before || !sameIdentity(before, record)) continue;
      // A failure after an answer never undoes the answer.
      if (!isFinal(record) && isFinal(before)) return;
      // The answer moves to the end: the order kept is the log order of the records kept.
      this.kept[positions[i] as number] = null;
      positions[i] = at;
      this.kept.push(record);
      byKey.set(record.key, positions.length === 1 ? at : positions);
      return;
    }
    positions.push(at);
    this.kept.push(record);
    byKey.set(record.key, positions);
  }

  private keysOf(record: SampleRecord): Map<string, number | number[]> {
    return byCheckAndModel(this.byKey, record.check, record.model);
  }

  records(): SampleRecord[] {
    return this.kept.filter((record): record is SampleRecord => record !== null);
  }
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
 * Lists the rule has already reduced (and subsets of them): reducing one again changes nothing
 * (one record per identity, one digest per model), so it is not done again. The pipeline
 * reduces a log once; each check's analysis asks for the reduction of its part.
 */
const reduced = new WeakSet<readonly SampleRecord[]>();

/** The records that count, marked so that countedRecords does not reduce them again. */
export function markCounted<T extends readonly SampleRecord[]>(records: T): T {
  reduced.add(records);
  return records;
}

/** The records of `records` that `keep` accepts, still marked as counted when they were. */
export function countedSubset(
  records: readonly SampleRecord[],
  keep: (record: SampleRecord) => boolean,
): SampleRecord[] {
  const subset = records.filter(keep);
  return reduced.has(records) ? markCounted(subset) : subset;
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
  if (current.size === 0 && reduced.has(records)) {
    return { records: records as SampleRecord[], otherWeights: [] };
  }
  return currentWeights(latestRecords(records), current);
}

/** countedRecords of records already reduced to the latest per identity (readSampleLogs'). */
export function currentWeights(
  latest: readonly SampleRecord[],
  current: ReadonlyMap<string, string | null> = new Map(),
): CountedRecords {
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

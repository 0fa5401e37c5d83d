/**
 * Resume: which records of the sample log belong to a unit of the plan. A record belongs when
 * check, model and digest are the unit's (another digest is another model, even under the
 * same tag) and its key is the unit key or extends it with "/…" (a game's decisions).
 */

import type { WorkUnit } from '../checks/workUnit.js';
import type { SampleRecord } from '../sampleLog/index.js';

/** A unit writes only its own records: another key or digest would hide them from resume. */
export function checkRecordBelongs(
  record: SampleRecord,
  unit: WorkUnit,
  digest: string | null,
): void {
  const keyFits = record.key === unit.key || record.key.startsWith(`${unit.key}/`);
  if (record.check !== unit.check || record.model !== unit.model || !keyFits) {
    throw new Error(
      `unit ${unit.check}/${unit.model}/${unit.key} emitted a record for ${record.check}/${record.model}/${record.key}`,
    );
  }
  if (record.digest !== digest) {
    throw new Error(
      `unit ${unit.check}/${unit.key} emitted digest ${record.digest} instead of the model's ${digest}: resume would not find it`,
    );
  }
}

export interface CurrentSplit {
  /** Records the plan's units accept, and records no unit of the plan claims. */
  current: SampleRecord[];
  /** Records of a planned unit that its `current` rejects: written under other settings. */
  stale: SampleRecord[];
  /** Records of a planned unit that a later attempt replaced (neither current nor stale). */
  replaced: SampleRecord[];
  /** Records (among `current`) that no unit of the plan claims. */
  unplanned: SampleRecord[];
  /** Units whose records in the log are all stale: the log holds them, but not for this config. */
  staleUnits: WorkUnit[];
}

/**
 * Separates the records a changed config would not have produced. Records that belong to no
 * unit of the plan (an item no longer in the file, a reference player) stay: the checks count
 * and report those themselves. Order is kept.
 */
export function splitStale(
  records: readonly SampleRecord[],
  units: readonly WorkUnit[],
): CurrentSplit {
  const unplanned: SampleRecord[] = [];
  const groups = new RecordsByUnit(units, records, (record) => unplanned.push(record));
  const stale = new Set<SampleRecord>();
  const replaced = new Set<SampleRecord>();
  const staleUnits: WorkUnit[] = [];
  // Units in the order of their first record, as the log met them.
  for (const at of groups.seen) {
    const unit = units[at] as WorkUnit;
    if (!unit.current) continue;
    let answered = false;
    for (const sameDigest of byDigest(groups.of(at))) {
      const current = unit.current(sameDigest);
      if (current.length > 0) answered = true;
      // `current` picks among the records: as many means all of them.
      if (current.length === sameDigest.length) continue;
      const kept = asSet(current);
      const superseded = asSet(unit.replaced?.(sameDigest) ?? []);
      for (const record of sameDigest) {
        if (kept.has(record)) continue;
        (superseded.has(record) ? replaced : stale).add(record);
      }
    }
    if (!answered) staleUnits.push(unit);
  }
  const left = (r: SampleRecord): boolean => stale.has(r) || replaced.has(r);
  return {
    current: stale.size + replaced.size === 0 ? [...records] : records.filter((r) => !left(r)),
    stale: records.filter((r) => stale.has(r)),
    replaced: records.filter((r) => replaced.has(r)),
    unplanned,
    staleUnits,
  };
}

/**
 * Records grouped by the planned unit that owns them (its key, or its key + "/…"), by the
 * unit's position in the plan: a record or a list per unit in one array of the plan's length,
 * so a plan of 150,000 single-record units costs no map entry and no list per unit.
 */
export class RecordsByUnit {
  private readonly own: (SampleRecord | SampleRecord[] | undefined)[];
  /** Positions of the units that own a record, in the order of their first record. */
  readonly seen: number[] = [];

  constructor(
    units: readonly WorkUnit[],
    records: readonly SampleRecord[],
    unclaimed: (record: SampleRecord) => void = () => {},
  ) {
    const lookup = new UnitLookup(units);
    this.own = new Array(units.length);
    for (const record of records) {
      const at = lookup.positionOf(record);
      if (at < 0) {
        unclaimed(record);
        continue;
      }
      const own = this.own[at];
      if (own === undefined) {
        this.own[at] = record;
        this.seen.push(at);
      } else if (Array.isArray(own)) own.push(record);
      else this.own[at] = [own, record];
    }
  }

  /** The records of the unit at `at`, in order. */
  of(at: number): readonly SampleRecord[] {
    const own = this.own[at];
    return own === undefined ? [] : Array.isArray(own) ? own : [own];
  }
}

/** A unit's records split by digest, in order (one list when they share one, the usual case). */
function byDigest(records: readonly SampleRecord[]): SampleRecord[][] {
  const first = records[0]?.digest;
  if (records.every((r) => r.digest === first)) return [records as SampleRecord[]];
  const lists = new Map<string | null, SampleRecord[]>();
  for (const record of records) {
    const list = lists.get(record.digest);
    if (list) list.push(record);
    else lists.set(record.digest, [record]);
  }
  return [...lists.values()];
}

function asSet(records: readonly SampleRecord[]): ReadonlySet<SampleRecord> {
  return new Set(records);
}

/**
 * One check and model's units, sorted by a hash of their key: each entry is the key's hash
 * (its top HASH_BITS bits) times 2^32 plus the unit's position, so one numeric sort orders them
 * and a key's candidates are one range. No key is held: a candidate's key is asked of its unit.
 */
type SortedKeys = Float64Array;

const HASH_BITS = 21;
const POSITION_SPAN = 2 ** 32;

/**
 * The unit whose key is a record's key or its longest prefix ending before a "/". Per check and
 * model, the units are held sorted by the hash of their key and found by binary search: a plan
 * of 1.6M units costs 8 bytes a unit here, and its units need not keep their keys as strings.
 * Where two units share a key, the later one owns it.
 */
export class UnitLookup {
  private readonly byCheck = new Map<string, Map<string, SortedKeys>>();

  constructor(private readonly units: readonly WorkUnit[]) {
    const grouped = new Map<string, Map<string, number[]>>();
    units.forEach((unit, at) => {
      const byModel = grouped.get(unit.check) ?? new Map<string, number[]>();
      grouped.set(unit.check, byModel);
      const own = byModel.get(unit.model);
      if (own) own.push(at);
      else byModel.set(unit.model, [at]);
    });
    for (const [check, byModel] of grouped) {
      const sorted = new Map<string, SortedKeys>();
      for (const [model, own] of byModel) {
        const entries = Float64Array.from(
          own,
          (at) => keyHash((units[at] as WorkUnit).key) * POSITION_SPAN + at,
        );
        sorted.set(model, entries.sort());
      }
      this.byCheck.set(check, sorted);
    }
  }

  owner(record: SampleRecord): WorkUnit | undefined {
    const at = this.positionOf(record);
    return at < 0 ? undefined : this.units[at];
  }

  /** The owner's position in the units, or -1. */
  positionOf(record: SampleRecord): number {
    const sorted = this.byCheck.get(record.check)?.get(record.model);
    if (!sorted) return -1;
    let key = record.key;
    for (;;) {
      const at = this.findKey(sorted, key);
      if (at >= 0) return at;
      const cut = key.lastIndexOf('/');
      if (cut < 0) return -1;
      key = key.slice(0, cut);
    }
  }

  /** The position of the last unit with this key, or -1. */
  private findKey(sorted: SortedKeys, key: string): number {
    const start = keyHash(key) * POSITION_SPAN;
    // The first entry at or after the hash's range.
    let low = 0;
    let high = sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((sorted[mid] as number) < start) low = mid + 1;
      else high = mid;
    }
    let found = -1;
    for (let i = low; i < sorted.length && (sorted[i] as number) < start + POSITION_SPAN; i++) {
      const at = (sorted[i] as number) - start;
      // Positions ascend within a hash: the last match is the later unit.
      if ((this.units[at] as WorkUnit).key === key) found = at;
    }
    return found;
  }
}

/** FNV-1a over the key's characters, its top HASH_BITS bits. */
function keyHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return (hash >>> 0) >>> (32 - HASH_BITS);
}

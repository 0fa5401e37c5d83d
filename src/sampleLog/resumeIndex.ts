/**
 * The lookup resume planning makes: the records that count of one unit (check, model, digest
 * and unit key; a maze decision's key extends its game's with "/…"). Built in one pass over the
 * records a streamed read kept; a unit of one record (a churn sample, most of a large plan)
 * costs one map entry, no list.
 */
import type { SampleRecord } from './schema.js';

type Found = SampleRecord | SampleRecord[];

export class ResumeIndex {
  private readonly groups = new Map<string, Map<string, Found>>();

  constructor(records: Iterable<SampleRecord> = []) {
    for (const record of records) this.add(record);
  }

  add(record: SampleRecord): void {
    const group = groupKey(record.check, record.model, record.digest);
    let byKey = this.groups.get(group);
    if (!byKey) {
      byKey = new Map();
      this.groups.set(group, byKey);
    }
    // The key itself, then each prefix ending before a "/": a decision belongs to its game.
    let key = record.key;
    for (;;) {
      const found = byKey.get(key);
      if (found === undefined) byKey.set(key, record);
      else if (Array.isArray(found)) found.push(record);
      else byKey.set(key, [found, record]);
      const cut = key.lastIndexOf('/');
      if (cut < 0) break;
      key = key.slice(0, cut);
    }
  }

  /** The unit's records, in the order they were added. */
  get(check: string, model: string, digest: string | null, key: string): SampleRecord[] {
    const found = this.groups.get(groupKey(check, model, digest))?.get(key);
    if (found === undefined) return [];
    return Array.isArray(found) ? found : [found];
  }
}

function groupKey(check: string, model: string, digest: string | null): string {
  return JSON.stringify([check, model, digest]);
}

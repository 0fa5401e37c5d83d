/**
 * Resume: which records of the sample log belong to a unit of the plan. A record belongs when
 * check, model and digest are the unit's (another digest is another model, even under the
 * same tag) and its key is the unit key or extends it with "/…" (a game's decisions).
 */
import type { SampleRecord } from './records.js';
import type { WorkUnit } from './types.js';

/** Records of the log by (check, model, digest, unit key), where a decision's key extends its game's. */
export function indexPrior(records: readonly SampleRecord[]): Map<string, SampleRecord[]> {
  const index = new Map<string, SampleRecord[]>();
  for (const record of records) {
    const parts = record.key.split('/');
    for (let n = parts.length; n >= 1; n--) {
      const key = priorKey(record.check, record.model, record.digest, parts.slice(0, n).join('/'));
      const list = index.get(key) ?? [];
      list.push(record);
      index.set(key, list);
    }
  }
  return index;
}

export function priorKey(check: string, model: string, digest: string | null, key: string): string {
  return JSON.stringify([check, model, digest, key]);
}

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

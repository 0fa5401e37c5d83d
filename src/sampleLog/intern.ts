/**
 * Shares the values that repeat across a log's records — model, digest, prompt hash, options,
 * status, and the fields a check declares repeated (an item, a domain) — so that a log read into memory holds each of them once instead of
 * once per record (JSON.parse makes a new string per occurrence). Values are equal before and
 * after: a record read through here is the record as written.
 */
import { recordFormat } from './formats.js';
import type { LogLine, RecordedOptions } from './schema.js';

/** Fields of every record whose values repeat; each check adds its own (`RecordFormat.repeated`). */
const SHARED_FIELDS = ['check', 'model', 'digest', 'prompt_sha256', 'status', 'reason'] as const;

export class RecordInterner {
  private readonly strings = new Map<string, string>();
  private readonly options = new Map<string, RecordedOptions>();

  /** The record, its repeated values replaced by shared ones (mutated in place). */
  record<T extends LogLine>(record: T): T {
    if (record.kind === 'run') return record;
    const fields = record as unknown as Record<string, unknown>;
    for (const field of [...SHARED_FIELDS, ...(recordFormat(record.check)?.repeated ?? [])]) {
      const value = fields[field];
      if (typeof value === 'string') fields[field] = this.string(value);
    }
    if (record.kind === 'call') record.options = this.recordedOptions(record.options);
    return record;
  }

  private string(value: string): string {
    const shared = this.strings.get(value);
    if (shared !== undefined) return shared;
    this.strings.set(value, value);
    return value;
  }

  private recordedOptions(o: RecordedOptions): RecordedOptions {
    const id = `${o.temperature}/${o.seed}/${o.num_ctx}/${o.num_predict}/${o.think}`;
    const shared = this.options.get(id);
    // Only an object with exactly these fields is shared: one with extra fields is kept as read.
    if (shared !== undefined && Object.keys(o).length === 5) return shared;
    if (shared === undefined && Object.keys(o).length === 5) this.options.set(id, o);
    return o;
  }
}

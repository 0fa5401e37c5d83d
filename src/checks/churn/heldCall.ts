/**
 * Churn call records as an analysis holds them. A large churn log is mostly records that differ
 * only in their key, sample, answer and timings: each record parsed from JSON holds its 19
 * fields itself (about 176 bytes), so 150,000 of them weigh 26 MB before anything is computed.
 * Here a record keeps what is its own in eight slots and shares the rest — model, digest,
 * options and mode with the records of its series, item, domain and prompt hash with the other
 * records of its item — behind getters that read as the record's fields. Values are equal to
 * the record as written; only records with no optional field besides the token counts are held
 * this way, any other keeps the object it was parsed as.
 */
import type { RecordHolder } from '../../sampleLog/formats.js';
import type { RecordedOptions, SampleRecord, SampleStatus } from '../../sampleLog/index.js';
import { SAMPLE_LOG_VERSION, SAMPLE_STATUSES } from '../../sampleLog/index.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

interface Series {
  model: string;
  digest: string | null;
  options: RecordedOptions;
  mode: ChurnCallRecord['mode'];
}

interface ItemPart {
  item: string;
  domain: string;
  prompt_sha256: string;
}

/** The fields a held record has, in the order a run writes them. */
const HELD_FIELDS = [
  'v',
  'kind',
  'check',
  'model',
  'digest',
  'key',
  'sample',
  'options',
  'prompt_sha256',
  'status',
  'latency_ms',
  'prompt_tokens',
  'completion_tokens',
  'attempts',
  'item',
  'domain',
  'mode',
  'answer',
  'correct',
] as const;
const HELD = new Set<string>(HELD_FIELDS);

/** sample (16 bits) · attempts (8 bits) · status (2 bits) · correct (2 bits: null, false, true). */
const MAX_SAMPLE = 0xffff;
const MAX_ATTEMPTS = 0xff;

class HeldChurnCall {
  constructor(
    private readonly series: Series,
    private readonly part: ItemPart,
    readonly key: string,
    readonly answer: string | null,
    readonly latency_ms: number,
    readonly prompt_tokens: number | undefined,
    readonly completion_tokens: number | undefined,
    private readonly packed: number,
  ) {}

  get v(): typeof SAMPLE_LOG_VERSION {
    return SAMPLE_LOG_VERSION;
  }
  get kind(): 'call' {
    return 'call';
  }
  get check(): 'churn' {
    return 'churn';
  }
  get model(): string {
    return this.series.model;
  }
  get digest(): string | null {
    return this.series.digest;
  }
  get options(): RecordedOptions {
    return this.series.options;
  }
  get mode(): ChurnCallRecord['mode'] {
    return this.series.mode;
  }
  get item(): string {
    return this.part.item;
  }
  get domain(): string {
    return this.part.domain;
  }
  get prompt_sha256(): string {
    return this.part.prompt_sha256;
  }
  get sample(): number {
    return this.packed & MAX_SAMPLE;
  }
  get attempts(): number {
    return (this.packed >>> 16) & MAX_ATTEMPTS;
  }
  get status(): SampleStatus {
    return SAMPLE_STATUSES[(this.packed >>> 24) & 3] as SampleStatus;
  }
  get correct(): boolean | null {
    const c = (this.packed >>> 26) & 3;
    return c === 0 ? null : c === 2;
  }

  /** The record as written, should one ever be serialised. */
  toJSON(): Record<string, unknown> {
    const plain: Record<string, unknown> = {};
    for (const field of HELD_FIELDS) {
      const value = this[field];
      if (value !== undefined) plain[field] = value;
    }
    return plain;
  }
}

/** Makes held records, sharing series and item parts among the records it holds. */
export class ChurnCallHolder implements RecordHolder {
  private readonly series = new Map<string, Series>();
  private readonly parts = new Map<string, ItemPart>();

  /** The record held compactly when it fits, else the record itself. */
  hold(record: SampleRecord): SampleRecord {
    if (!isChurnCall(record) || !fits(record)) return record;
    const status = SAMPLE_STATUSES.indexOf(record.status);
    const correct = record.correct === null ? 0 : record.correct ? 2 : 1;
    const packed = record.sample | (record.attempts << 16) | (status << 24) | (correct << 26);
    const held = new HeldChurnCall(
      this.seriesOf(record),
      this.partOf(record),
      record.key,
      record.answer,
      record.latency_ms,
      record.prompt_tokens,
      record.completion_tokens,
      packed,
    );
    return held as unknown as ChurnCallRecord;
  }

  private seriesOf(record: ChurnCallRecord): Series {
    const o = record.options;
    const id = `${record.model}\0${record.digest}\0${record.mode}\0${o.temperature}/${o.seed}/${o.num_ctx}/${o.num_predict}/${o.think}`;
    let series = this.series.get(id);
    // Options with fields beyond the five are the record's own: the series is not shared.
    if (series === undefined || series.options !== o) {
      series = { model: record.model, digest: record.digest, options: o, mode: record.mode };
      if (!this.series.has(id)) this.series.set(id, series);
    }
    return series;
  }

  private partOf(record: ChurnCallRecord): ItemPart {
    const id = `${record.item}\0${record.domain}\0${record.prompt_sha256}`;
    let part = this.parts.get(id);
    if (part === undefined) {
      part = { item: record.item, domain: record.domain, prompt_sha256: record.prompt_sha256 };
      this.parts.set(id, part);
    }
    return part;
  }
}

/** A record the held form gives back unchanged: its own fields only, each within its slot. */
function fits(record: ChurnCallRecord): boolean {
  for (const field in record) if (!HELD.has(field)) return false;
  return (
    record.v === SAMPLE_LOG_VERSION &&
    Number.isInteger(record.sample) &&
    record.sample >= 0 &&
    record.sample <= MAX_SAMPLE &&
    Number.isInteger(record.attempts) &&
    record.attempts >= 0 &&
    record.attempts <= MAX_ATTEMPTS &&
    (typeof record.correct === 'boolean' || record.correct === null)
  );
}

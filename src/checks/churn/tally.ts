/**
 * Records → per item and model: which samples are valid and correct (bit masks), the greedy
 * answer, and request counts, from the records that count (the sample log reader decides which:
 * the latest, under the model's current digest).
 */
import {
  countStatus,
  emptyStatusCounts,
  type SampleRecord,
  type StatusCounts,
} from '../../sampleLog/index.js';
import { createSampleMasks, type SampleMasks } from '../../stats/splitHalf.js';
import type { ChurnItem } from './items.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

export type RequestCounts = StatusCounts;

export interface ModelTally {
  model: string;
  masks: SampleMasks;
  /** Greedy sample per item: true/false when answered, null when missing/invalid/timeout. */
  greedy: (boolean | null)[];
  /** Stochastic and greedy samples together, one per slot (after de-duplication). */
  requests: RequestCounts;
  /** Prompt hashes seen (one per item unless the prompt changed between runs). */
  promptHashes: Set<string>;
  /** Open items: per item, stochastic answers none of the labels (label grader). */
  offLabel: Int32Array;
  /** Open items: per item, the first right and the first wrong answer text (by sample index). */
  examples: (AnswerExamples | undefined)[];
}

export interface AnswerExamples {
  correct: string | null;
  wrong: string | null;
}

export interface ChurnTally {
  baseline: ModelTally;
  candidate: ModelTally | null;
  /** Records naming an item the definitions do not hold. */
  unknownItemRecords: number;
  /** Stochastic records with a sample index at or beyond K. */
  beyondSamples: number;
  /** Records of the logprobs estimator, which sampled analysis leaves aside. */
  logprobsRecords: number;
}

/** Adds the record that counts for one sample to its model's tally. */
function countRecord(
  tally: ModelTally,
  record: ChurnCallRecord,
  index: ReadonlyMap<string, number>,
): void {
  const i = index.get(record.item) as number;
  countStatus(tally.requests, record.status);
  tally.promptHashes.add(record.prompt_sha256);
  const answered = record.status === 'ok' && record.correct !== null;
  if (record.mode === 'greedy') {
    tally.greedy[i] = answered ? record.correct : null;
    return;
  }
  if (!answered) return;
  // Open items' answers (graded, with their text): the evidence behind a flag.
  if (record.grader !== undefined && record.text !== undefined) keepExample(tally, i, record);
  const { masks } = tally;
  const word = i * masks.words + (record.sample >>> 5);
  const bit = 1 << (record.sample & 31);
  masks.valid[word] = ((masks.valid[word] as number) | bit) >>> 0;
  if (record.correct) masks.correct[word] = ((masks.correct[word] as number) | bit) >>> 0;
}

function keepExample(tally: ModelTally, i: number, record: ChurnCallRecord): void {
  if (record.off_label) tally.offLabel[i] = (tally.offLabel[i] as number) + 1;
  const examples = tally.examples[i] ?? { correct: null, wrong: null };
  tally.examples[i] = examples;
  if (record.correct) examples.correct ??= record.text ?? null;
  else examples.wrong ??= record.text ?? null;
}

/**
 * The tally built record by record: each record that counts is added as it comes (the churn
 * fold at a fixed K), or, from a list, once per sample (tallyRecords).
 */
export class TallyBuilder {
  readonly index: ReadonlyMap<string, number>;
  private readonly tallies = new Map<string, ModelTally>();
  private unknownItemRecords = 0;
  private beyondSamples = 0;
  private logprobsRecords = 0;

  constructor(
    items: readonly ChurnItem[],
    readonly samples: number,
    private readonly baseline: string,
    private readonly candidate: string | null,
  ) {
    this.index = new Map(items.map((item, i) => [item.id, i]));
    const make = (model: string): ModelTally => ({
      model,
      masks: createSampleMasks(items.length, samples),
      greedy: new Array<boolean | null>(items.length).fill(null),
      requests: emptyStatusCounts(),
      promptHashes: new Set(),
      offLabel: new Int32Array(items.length),
      examples: new Array<AnswerExamples | undefined>(items.length),
    });
    this.tallies.set(baseline, make(baseline));
    if (candidate !== null && candidate !== baseline) this.tallies.set(candidate, make(candidate));
  }

  /**
   * The slot of a record among its model's (the greedy one after the K stochastic ones), or
   * null when it has none: another model's, the logprobs estimator's, an item the definitions
   * do not hold or a sample beyond K (counted for the warnings).
   */
  slotOf(record: SampleRecord): { tally: ModelTally; slot: number } | null {
    if (!isChurnCall(record)) return null;
    const tally = this.tallies.get(record.model);
    if (!tally) return null;
    if (record.mode === 'exact') {
      this.logprobsRecords++;
      return null;
    }
    const i = this.index.get(record.item);
    if (i === undefined) {
      this.unknownItemRecords++;
      return null;
    }
    if (record.mode === 'stochastic' && (record.sample >= this.samples || record.sample < 0)) {
      this.beyondSamples++;
      return null;
    }
    const sample = record.mode === 'greedy' ? this.samples : record.sample;
    return { tally, slot: i * (this.samples + 1) + sample };
  }

  /** Counts one record; null slots as slotOf says. */
  add(record: SampleRecord): void {
    if (this.slotOf(record)) this.count(record as ChurnCallRecord);
  }

  /** Counts a record that has a slot. */
  count(record: ChurnCallRecord): void {
    countRecord(this.tallies.get(record.model) as ModelTally, record, this.index);
  }

  models(): string[] {
    return [...this.tallies.keys()];
  }

  result(): ChurnTally {
    return {
      baseline: this.tallies.get(this.baseline) as ModelTally,
      // A/A: the same tag twice compares the model with itself on the same samples.
      candidate: this.candidate === null ? null : (this.tallies.get(this.candidate) as ModelTally),
      unknownItemRecords: this.unknownItemRecords,
      beyondSamples: this.beyondSamples,
      logprobsRecords: this.logprobsRecords,
    };
  }
}

/**
 * The tally of a list of records in any order: the record that counts per model, item and
 * sample (the latest, as the log has it), counted in sample order.
 */
export function tallyRecords(
  records: readonly SampleRecord[],
  items: readonly ChurnItem[],
  samples: number,
  baseline: string,
  candidate: string | null,
): ChurnTally {
  const builder = new TallyBuilder(items, samples, baseline, candidate);
  const slots = new Map<string, (ChurnCallRecord | undefined)[]>();
  for (const model of builder.models()) slots.set(model, new Array(items.length * (samples + 1)));
  for (const record of records) {
    const at = builder.slotOf(record);
    if (at)
      (slots.get(at.tally.model) as (ChurnCallRecord | undefined)[])[at.slot] =
        record as ChurnCallRecord;
  }
  for (const own of slots.values()) for (const record of own) if (record) builder.count(record);
  return builder.result();
}

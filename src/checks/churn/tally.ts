/**
 * Records → per item and model: which samples are valid and correct (bit masks), the greedy
 * answer, and request counts. Which record of a sample counts is the sample log's rule
 * (countedRecords: the latest, under the model's current digest).
 */
import {
  countedRecords,
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

export function tallyRecords(
  records: readonly SampleRecord[],
  items: readonly ChurnItem[],
  samples: number,
  baseline: string,
  candidate: string | null,
): ChurnTally {
  const index = new Map(items.map((item, i) => [item.id, i]));
  const make = (model: string): ModelTally => ({
    model,
    masks: createSampleMasks(items.length, samples),
    greedy: new Array<boolean | null>(items.length).fill(null),
    requests: emptyStatusCounts(),
    promptHashes: new Set(),
    offLabel: new Int32Array(items.length),
    examples: new Array<AnswerExamples | undefined>(items.length),
  });
  const tallies = new Map<string, ModelTally>([[baseline, make(baseline)]]);
  if (candidate !== null && candidate !== baseline) tallies.set(candidate, make(candidate));
  // The record that counts per model, item and sample (the greedy one after the K stochastic
  // ones): the latest, as the log has it. A slot array per model, no key string per record.
  const perItem = samples + 1;
  const slots = new Map<string, (ChurnCallRecord | undefined)[]>();
  for (const model of tallies.keys()) slots.set(model, new Array(items.length * perItem));
  let unknownItemRecords = 0;
  let beyondSamples = 0;
  let logprobsRecords = 0;
  for (const record of countedRecords(records).records) {
    if (!isChurnCall(record)) continue;
    const own = slots.get(record.model);
    if (!own) continue;
    if (record.mode === 'exact') {
      logprobsRecords++;
      continue;
    }
    const i = index.get(record.item);
    if (i === undefined) {
      unknownItemRecords++;
      continue;
    }
    if (record.mode === 'stochastic' && (record.sample >= samples || record.sample < 0)) {
      beyondSamples++;
      continue;
    }
    own[i * perItem + (record.mode === 'greedy' ? samples : record.sample)] = record;
  }
  for (const [model, own] of slots) {
    const tally = tallies.get(model) as ModelTally;
    for (const record of own) if (record) countRecord(tally, record, index);
  }
  const baselineTally = tallies.get(baseline) as ModelTally;
  return {
    baseline: baselineTally,
    // A/A: the same tag twice compares the model with itself on the same samples.
    candidate: candidate === null ? null : (tallies.get(candidate) as ModelTally),
    unknownItemRecords,
    beyondSamples,
    logprobsRecords,
  };
}

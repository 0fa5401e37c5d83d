/**
 * The churn check's records in the sample log: one call record per sample of an item (see
 * docs/sample-log.md), and their format as handed to the sample log.
 */
import { z } from 'zod';
import type { RecordFormat } from '../../sampleLog/formats.js';
import {
  callRecordFields,
  countField,
  nonNegativeField,
  type SampleRecord,
  shareField,
} from '../../sampleLog/index.js';

export const churnCallSchema = z.object({
  ...callRecordFields,
  check: z.literal('churn'),
  item: z.string(),
  domain: z.string(),
  /** `exact`: one evaluation that reads the letter probabilities (churn.estimator: logprobs). */
  mode: z.enum(['stochastic', 'greedy', 'exact']),
  /** Letter chosen (exact mode: the most probable one), null when invalid/timeout. */
  answer: z.string().nullable(),
  correct: z.boolean().nullable(),
  /** Exact mode: where the letter probabilities were read. */
  estimator: z.enum(['embedded-logits', 'ollama-logprobs']).optional(),
  /** Exact mode: the temperature the probabilities are for (churn.temperature). */
  estimate_temperature: nonNegativeField().optional(),
  /** Exact mode: probability of each valid letter at that temperature (they sum to 1). */
  letters: z.record(z.string(), shareField()).optional(),
  /** Exact mode: probability of the correct letter. */
  p_correct: shareField().optional(),
  /** Open item: fingerprint of the grader that decided `correct` when the answer came. */
  grader: z.string().optional(),
  /** Open item, label grader: the answer was none of the labels (a wrong answer). */
  off_label: z.boolean().optional(),
  /** Open item: `text` holds the first 8 kB of a longer answer. */
  text_truncated: z.boolean().optional(),
  /** Open item with `text_truncated`: the whole answer's size in UTF-8 bytes. */
  text_bytes: countField().optional(),
});
export type ChurnCallRecord = z.infer<typeof churnCallSchema>;

/** True for a churn call: the one place a record of the log is taken as churn's. */
export function isChurnCall(record: SampleRecord): record is ChurnCallRecord {
  return record.kind === 'call' && record.check === 'churn';
}

/** The churn records as the sample log reads them (the registry hands this format over). */
export const churnRecords: RecordFormat = {
  kinds: { call: churnCallSchema },
  okAnswer: z.object({ answer: z.string(), correct: z.boolean() }),
  // Letter probabilities read at another temperature are another measurement.
  identity: (record) => (isChurnCall(record) ? (record.estimate_temperature ?? null) : null),
};

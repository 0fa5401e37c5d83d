/**
 * The personas check's records in the sample log: one call record per probe answered by an
 * assistant, with its text (see docs/sample-log.md). The registry hands this format to the
 * sample log.
 */
import { z } from 'zod';
import type { RecordFormat } from '../../sampleLog/formats.js';
import { callRecordFields, countField, type SampleRecord } from '../../sampleLog/index.js';

const personasCallSchema = z.object({
  ...callRecordFields,
  check: z.literal('personas'),
  persona: z.string(),
  probe: countField(),
  /** Verbatim answer (the analysis needs it); empty when not ok. */
  text: z.string(),
  /** Embedding of `text` (personas `vectors: embed`), computed when the answer was collected. */
  vector: z.array(z.number()).optional(),
  /** Model that produced `vector`. */
  embed_model: z.string().optional(),
});
export type PersonasCallRecord = z.infer<typeof personasCallSchema>;

/** True for a personas call: the one place a record of the log is taken as personas'. */
export function isPersonasCall(record: SampleRecord): record is PersonasCallRecord {
  return record.kind === 'call' && record.check === 'personas';
}

export const personasRecords: RecordFormat = {
  kinds: { call: personasCallSchema },
  okAnswer: z.object({ text: z.string() }),
};

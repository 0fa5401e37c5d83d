/**
 * The speed check's own records, written only when it runs alone: one call record per answer
 * to one of its short prompts, with the shared fields (token counts and the server's timings)
 * and the prompt's id. With other checks it writes nothing and reads their records.
 */
import { z } from 'zod';
import type { RecordFormat } from '../../sampleLog/formats.js';
import { callRecordFields } from '../../sampleLog/index.js';

const speedCallSchema = z.object({
  ...callRecordFields,
  check: z.literal('speed'),
  prompt: z.string(),
});
export type SpeedCallRecord = z.infer<typeof speedCallSchema>;

export const speedRecords: RecordFormat = {
  kinds: { call: speedCallSchema },
};

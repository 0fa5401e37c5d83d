/** The churn records as the sample log reads them (the registry hands this format over). */
import { z } from 'zod';
import type { RecordFormat } from '../../sampleLog/formats.js';
import { churnCallSchema, isChurnCall } from './records.js';

export const churnRecords: RecordFormat = {
  kinds: { call: churnCallSchema },
  okAnswer: z.object({ answer: z.string(), correct: z.boolean() }),
  // Letter probabilities read at another temperature are another measurement.
  identity: (record) => (isChurnCall(record) ? (record.estimate_temperature ?? null) : null),
};

/**
 * The churn section of report.json as a schema: open (fields of another version are kept),
 * its `check` tag and, when present, the adaptive-sampling summary validated.
 */
import { z } from 'zod';
import { sectionSchema } from '../types.js';
import type { ChurnSection } from './section.js';

const finite = z.number().refine(Number.isFinite, 'expected a finite number');

const count = z.number().int().min(0);

/** churn.sampling: adaptive — the design, its requests against a fixed K, where items stopped. */
const adaptiveSamplingSchema = z
  .object({
    mode: z.literal('adaptive'),
    samplesFirst: count,
    samplesStep: count,
    samplesMax: count,
    settledShare: finite,
    futility: z.object({ p: finite, from: count }).nullable(),
    requests: z
      .object({ used: count, fixed: count, saved: z.number().int(), savedShare: finite.nullable() })
      .describe('Stochastic requests of both models: used, at a fixed K = samplesMax, saved.'),
    stopped: z.array(
      z.object({
        samples: count,
        items: count,
        settled: count,
        futility: count,
        samplesMax: count,
        open: count,
      }),
    ),
  })
  .describe('Adaptive sampling (churn.sampling: adaptive); absent at a fixed K.');

export const churnSectionSchema = sectionSchema<ChurnSection>('churn', {
  sampling: adaptiveSamplingSchema.optional(),
});

/**
 * The churn section of report.json as a schema: open (fields of another version are kept),
 * its `check` tag and, when present, the adaptive-sampling and open-items summaries validated.
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
    futility: z
      .object({
        p: finite,
        from: count,
        tighten: finite
          .optional()
          .describe('The bar is multiplied by this at each look after the first; absent: 1.'),
      })
      .nullable(),
    decided: z
      .object({ pAtMost: finite })
      .nullable()
      .describe('Efficacy stop: an item stops once its stage-wise p-value is at most pAtMost.'),
    requests: z
      .object({ used: count, fixed: count, saved: z.number().int(), savedShare: finite.nullable() })
      .describe('Stochastic requests of both models: used, at a fixed K = samplesMax, saved.'),
    stopped: z.array(
      z.object({
        samples: count,
        items: count,
        settled: count,
        decided: count,
        futility: count,
        samplesMax: count,
        open: count,
      }),
    ),
  })
  .describe('Adaptive sampling (churn.sampling: adaptive); absent at a fixed K.');

/** Open items: graders used and what grading the log's answers found. */
const openItemsSchema = z
  .object({
    items: count,
    graderVersion: z.string(),
    graders: z.array(z.object({ type: z.string(), items: count })),
    offLabel: z.object({ baseline: count, candidate: count.nullable() }),
    answers: z
      .object({
        graded: count,
        otherGrader: count,
        changed: count,
        withoutText: count,
        truncated: count,
      })
      .describe(
        'Answers of open items graded from the logged text; of them, logged under another grader and changed verdict; kept without text; graded from a cut text.',
      ),
  })
  .describe('Open items (free-form answers graded by the analysis); absent when there are none.');

export const churnSectionSchema = sectionSchema<ChurnSection>('churn', {
  sampling: adaptiveSamplingSchema.optional(),
  openItems: openItemsSchema.optional(),
});

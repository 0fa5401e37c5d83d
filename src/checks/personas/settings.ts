import { z } from 'zod';

/** `personas:` section of model-gate.yml. */
export const personasSettingsSchema = z
  .object({
    catalogue: z.string().min(1).default('fixtures/personas/catalogue.yml'),
    temperature: z.number().min(0).max(2).default(0.3),
    seed: z.number().int().min(0).default(7),
    maxTokens: z.number().int().min(16).default(320),
    think: z.boolean().default(false),
    vectors: z.enum(['tfidf', 'embed']).default('tfidf'),
    embedModel: z.string().min(1).optional(),
    permutations: z.number().int().min(100).default(1000),
    gate: z
      .object({
        minRecognition: z.number().min(0).max(1).default(0.5),
        maxAccuracyDrop: z.number().min(0).max(1).default(0.15),
        maxTimeoutShare: z.number().min(0).max(1).default(0.05),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type PersonasSettings = z.infer<typeof personasSettingsSchema>;

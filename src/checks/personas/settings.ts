import { z } from 'zod';

/** Default answers per assistant and probe: the smallest count that gives the merge rule 80% power. */
export const SAMPLES_DEFAULT = 4;

/** The built-in persona catalogue, shipped in the package (`personas.catalogue` by default). */
export const BUILT_IN_CATALOGUE = 'fixtures/personas/catalogue.yml';

/** `personas:` section of model-gate.yml. */
export const personasSettingsSchema = z
  .object({
    catalogue: z.string().min(1).default(BUILT_IN_CATALOGUE),
    temperature: z.number().min(0).max(2).default(0.3),
    seed: z.number().int().min(0).default(7),
    /**
     * Answers per assistant and probe (seeds seed, seed + 1, …). One answer per probe leaves
     * 8 per assistant, too few for a test to tell a merged pair from noise; see
     * docs/gate-validity-personas.md for the power at each value.
     */
    samples: z.number().int().min(1).max(50).default(SAMPLES_DEFAULT),
    maxTokens: z.number().int().min(16).default(320),
    think: z.boolean().default(false),
    vectors: z.enum(['tfidf', 'embed']).default('tfidf'),
    embedModel: z.string().min(1).optional(),
    permutations: z.number().int().min(100).default(1000),
    gate: z
      .object({
        minRecognition: z.number().min(0).max(1).default(0.5),
        /** Smallest rise of a pair's crossing share (answers taken for the other) that fails. */
        minCrossingRise: z.number().min(0).max(1).default(0.15),
        maxAccuracyDrop: z.number().min(0).max(1).default(0.15),
        maxTimeoutShare: z.number().min(0).max(1).default(0.05),
        maxInvalidShare: z.number().min(0).max(1).default(0.1),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type PersonasSettings = z.infer<typeof personasSettingsSchema>;

declare module '../../config/schema.js' {
  /** The config's `personas:` block (the registry hands its schema to the config). */
  interface CheckSettingsBlocks {
    personas: PersonasSettings;
  }
}

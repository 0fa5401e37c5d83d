import { z } from 'zod';
import type { GateConfig } from '../../config/schema.js';
import { maxInvalidShare, maxTimeoutShare } from '../../config/shareLimit.js';
import { checkSettings, share } from '../settings.js';

/** Default answers per assistant and probe: the smallest count that gives the merge rule 80% power. */
export const SAMPLES_DEFAULT = 4;

/** The built-in persona catalogue, shipped in the package (`personas.catalogue` by default). */
export const BUILT_IN_CATALOGUE = 'fixtures/personas/catalogue.yml';

/** `personas:` section of model-gate.yml. */
export const personasSettingsSchema = checkSettings(
  {
    catalogue: z
      .string()
      .min(1)
      .default(BUILT_IN_CATALOGUE)
      .describe(
        'the assistants and probes (docs/personas-catalogue.md); the default is the built-in catalogue that ships with model-gate',
      ),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .default(0.3)
      .describe('sampling temperature of the answers'),
    seed: z.number().int().min(0).default(7).describe('answer k of a probe uses seed + k'),
    /**
     * Answers per assistant and probe (seeds seed, seed + 1, …). One answer per probe leaves
     * 8 per assistant, too few for a test to tell a merged pair from noise; see
     * docs/gate-validity-personas.md for the power at each value.
     */
    samples: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(SAMPLES_DEFAULT)
      .describe('answers per assistant and probe: the power to see two assistants merge'),
    maxTokens: z.number().int().min(16).default(320).describe('most tokens an answer may take'),
    think: z.boolean().default(false).describe('ask thinking models to think before they answer'),
    vectors: z
      .enum(['tfidf', 'embed'])
      .default('tfidf')
      .describe("tfidf (vocabulary) | embed (meaning, through the server's embedding endpoint)"),
    embedModel: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'vectors: embed: the embedding model', examples: ['nomic-embed-text'] }),
    permutations: z
      .number()
      .int()
      .min(100)
      .default(1000)
      .describe('permutations of the attribution null'),
  },
  {
    minRecognition: share(0.5, 'an assistant recognised in a smaller share of its answers fails'),
    /** Smallest rise of a pair's crossing share (answers taken for the other) that fails. */
    minCrossingRise: share(
      0.15,
      'a pair fails when its crossing share rises significantly by at least this',
    ),
    maxAccuracyDrop: share(0.15, 'a larger drop of attribution accuracy warns'),
    maxTimeoutShare: maxTimeoutShare(),
    maxInvalidShare: maxInvalidShare('empty or thinking-only answers'),
  },
  {
    gate: 'what fails or warns',
    block:
      'whether the assistants declared with different system prompts still give distinguishable answers',
  },
);

export type PersonasSettings = z.infer<typeof personasSettingsSchema>;

/** The config as the personas check reads it: its `personas:` block typed. */
export type PersonasConfig = GateConfig & { personas: PersonasSettings };

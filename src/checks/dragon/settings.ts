import { z } from 'zod';
import { seedListSchema } from '../../config/seedList.js';
import { DEFAULT_WALLS, MAX_WALLS } from './protocol.js';

/** `dragon:` section of model-gate.yml. Rules of the game are protocol constants, not settings. */
export const dragonSettingsSchema = z
  .object({
    seeds: seedListSchema.default([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]),
    walls: z.number().int().min(0).max(MAX_WALLS).default(DEFAULT_WALLS),
    hints: z.enum(['walls', 'local']).default('walls'),
    temperature: z.number().min(0).max(2).default(0),
    seed: z.number().int().min(0).default(42),
    numPredict: z.number().int().min(8).default(64),
    think: z.boolean().default(false),
    bootstrap: z.number().int().min(100).default(1000),
    /** A game stops after this many invalid answers in a row (a never-valid model's cost). */
    maxConsecutiveInvalid: z.number().int().min(1).max(300).default(10),
    /** Reference players (no model) run beside the models as instrument controls. */
    referencePlayers: z.array(z.enum(['random', 'overconfident', 'careful'])).default([]),
    gate: z
      .object({
        maxEceIncrease: z.number().min(0).max(1).default(0.05),
        maxKnownWallIncrease: z.number().min(0).max(1).default(0.1),
        /** Nightly single-model mode: a previous report.json to compare with. */
        previousReport: z.string().min(1).optional(),
        maxEce: z.number().min(0).max(1).optional(),
        maxBrier: z.number().min(0).max(1).optional(),
        maxTimeoutShare: z.number().min(0).max(1).default(0.05),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type DragonSettings = z.infer<typeof dragonSettingsSchema>;

declare module '../../config/schema.js' {
  /** The config's `dragon:` block (the registry hands its schema to the config). */
  interface CheckSettingsBlocks {
    dragon: DragonSettings;
  }
}

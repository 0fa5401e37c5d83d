import { z } from 'zod';
import type { GateConfig } from '../../config/schema.js';
import { seedListSchema } from '../../config/seedList.js';
import { maxTimeoutShare } from '../../config/shareLimit.js';
import { checkSettings, optionalShare, share } from '../settings.js';
import { DEFAULT_WALLS, MAX_WALLS } from './protocol.js';

/** `dragon:` section of model-gate.yml. Rules of the game are protocol constants, not settings. */
export const dragonSettingsSchema = checkSettings(
  {
    seeds: seedListSchema.default([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).meta({
      description: 'maze seeds: a list such as [0, 3, 7], or a range such as 0-9 or 0-4,7',
      // The default as a user writes it (zod cannot write a list that was read from a range).
      default: '0-9',
    }),
    walls: z
      .number()
      .int()
      .min(0)
      .max(MAX_WALLS)
      .default(DEFAULT_WALLS)
      .describe('interior walls of each maze'),
    hints: z
      .enum(['walls', 'local'])
      .default('walls')
      .describe('walls (the raw list of known walls) | local (the blocked directions from here)'),
    temperature: z.number().min(0).max(2).default(0).describe("temperature of the model's moves"),
    seed: z.number().int().min(0).default(42).describe("seed of the model's answers"),
    numPredict: z.number().int().min(8).default(64).describe('most tokens an answer may take'),
    think: z.boolean().default(false).describe('ask thinking models to think before they answer'),
    bootstrap: z
      .number()
      .int()
      .min(100)
      .default(1000)
      .describe('cluster bootstrap replicates over games for the ECE intervals'),
    /** A game stops after this many invalid answers in a row (a never-valid model's cost). */
    maxConsecutiveInvalid: z
      .number()
      .int()
      .min(1)
      .max(300)
      .default(10)
      .describe('a game stops after this many invalid answers in a row'),
    /** Reference players (no model) run beside the models as instrument controls. */
    referencePlayers: z
      .array(z.enum(['random', 'overconfident', 'careful']))
      .default([])
      .describe(
        'players without a model, run beside the models as instrument controls: random, overconfident, careful',
      ),
  },
  {
    maxEceIncrease: share(0.05, 'largest rise of the expected calibration error over the baseline'),
    maxKnownWallIncrease: share(
      0.1,
      'a larger rise of the share of moves into walls the model already knows warns',
    ),
    /** Nightly single-model mode: a previous report.json to compare with. */
    previousReport: z
      .string()
      .min(1)
      .optional()
      .meta({
        description: "nightly mode (no candidate): last night's report.json to compare with",
        examples: ['last-night/report.json'],
      }),
    maxEce: optionalShare('an absolute limit on the expected calibration error', 0.3),
    maxBrier: optionalShare('an absolute limit on the Brier score (0.25: always saying 50%)', 0.25),
    maxTimeoutShare: maxTimeoutShare(),
  },
  {
    gate: 'what fails or warns',
    block:
      'whether the confidence the model states in the maze game matches how often it is right (docs/dragon-protocol.md)',
  },
);

export type DragonSettings = z.infer<typeof dragonSettingsSchema>;

/** The config as the dragon check reads it: its `dragon:` block typed. */
export type DragonConfig = GateConfig & { dragon: DragonSettings };

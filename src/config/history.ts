import { z } from 'zod';

export interface DriftSettings {
  /** Nights in the window (the last N with an ECE). */
  nights: number;
  /** Rise of ECE across the window above which the rule may fail. */
  maxRise: number;
  /** One-sided level of the slope test. */
  alpha: number;
  /** Simulated windows behind the false-alarm rate and the smallest detected rise. */
  replicates: number;
  /** Seed of those simulations (the same nights always give the same rates). */
  seed: number;
}

export const DRIFT_DEFAULTS: DriftSettings = {
  nights: 7,
  maxRise: 0.05,
  // Its part of the default budget: 5% over three checks, then over the dragon check's three
  // failing rules of a nightly run with a history (ece-increase, brier-above-chance, ece-drift).
  alpha: 0.05 / 3 / 3,
  replicates: 2000,
  seed: 20_260_101,
};

/** `history:` section of model-gate.yml: the drift rule on the nights of `output.history`. */
export const historySettingsSchema = z
  .object({
    /** Nights the drift rule fits its trend on (the last N with an ECE). */
    driftNights: z
      .number()
      .int()
      .min(3)
      .max(365)
      .default(DRIFT_DEFAULTS.nights)
      .describe('the ECE trend is fitted on the last N nights with an ECE'),
    /** Rise of ECE across those nights from which the rule may fail. */
    maxEceRise: z
      .number()
      .gt(0)
      .max(1)
      .default(DRIFT_DEFAULTS.maxRise)
      .describe(
        'the rule fails when ECE rises more than this across them, and the slope is significant',
      ),
    /**
     * One-sided level of the slope test (per night): the drift rule's part of the dragon
     * check's share of false-alarm-rate, the rest going to the dragon's other failing rules.
     * Unset: an equal part (checks/dragon/rules.ts, dragonBudgetSplit).
     */
    alpha: z
      .number()
      .gt(0)
      .lt(0.5)
      .optional()
      .meta({
        description:
          "one-sided level of the slope test, taken out of the dragon check's share of false-alarm-rate (the rest split between its other failing rules); default: an equal part of that share",
        examples: [0.005],
      }),
    /** Nights shown in the summary's table and trend chart. */
    show: z
      .number()
      .int()
      .min(1)
      .max(365)
      .default(14)
      .describe("nights in the summary's table and trend chart"),
  })
  .strict();

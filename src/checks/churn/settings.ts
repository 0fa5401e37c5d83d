import { z } from 'zod';

/**
 * A choice among `values`; an old spelling is refused with a message naming its new one
 * (a renamed value must not silently fall back to a default or read as a typo).
 */
function renamedChoice<const T extends readonly [string, ...string[]]>(
  values: T,
  renamed: Record<string, T[number]>,
) {
  return z
    .string()
    .superRefine((value, ctx) => {
      const now = renamed[value];
      if (now !== undefined) {
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" was renamed: write ${now}`,
          input: value,
        });
      }
    })
    .pipe(z.enum(values));
}

/** The built-in items, shipped in the package (`churn.items` by default). */
export const BUILT_IN_ITEMS = 'fixtures/items/general.yml';

/** `churn:` section of model-gate.yml (keys are kebab-case in YAML, camelCase here). */
export const churnSettingsSchema = z
  .object({
    items: z.string().min(1).default(BUILT_IN_ITEMS),
    samples: z.number().int().min(2).max(1000).default(10),
    /**
     * `fixed`: `samples` per item and model. `adaptive`: a first stage of `samples-first`, then
     * stages of `samples-step` only for items still open, up to `samples-max`
     * (docs/adaptive-sampling.md).
     */
    sampling: z.enum(['fixed', 'adaptive']).default('fixed'),
    samplesFirst: z.number().int().min(2).max(1000).default(3),
    samplesStep: z.number().int().min(1).max(1000).default(5),
    samplesMax: z.number().int().min(2).max(1000).default(23),
    /** An item stops once its pooled share right is at or below this, or at or above 1 − this. */
    settledShare: z.number().min(0).lt(0.5).default(0.1),
    /** Futility stop: from `futility-from` samples, an item whose p-value is above this stops; 1: off. */
    futilityP: z.number().gt(0).max(1).default(0.05),
    futilityFrom: z.number().int().min(1).max(1000).default(14),
    temperature: z.number().min(0).max(2).default(0.7),
    baseSeed: z.number().int().min(0).default(1000),
    greedy: z.boolean().default(true),
    greedySeed: z.number().int().min(0).default(42),
    think: z.boolean().default(false),
    numPredict: z.number().int().min(1).default(32),
    /**
     * `sampled`: K answers per item, p = x/n. `logprobs`: one evaluation per item that reads
     * the probability of each letter (embedded provider, or Ollama ≥ 0.12.11 token logprobs).
     */
    estimator: renamedChoice(['sampled', 'logprobs'], { exact: 'logprobs' }).default('sampled'),
    /** Logprobs estimator: the |Δp| from which an item counts as improved or deteriorated. */
    minEffect: z.number().gt(0).max(1).default(0.2),
    /** Logprobs estimator over Ollama: alternatives returned per token (the server allows 20). */
    topLogprobs: z.number().int().min(1).max(20).default(20),
    /** `fisher-bh`: Fisher's exact test per item + Benjamini–Hochberg. `rci`: Reliable Change Index. */
    method: renamedChoice(['fisher-bh', 'rci'], { exact: 'fisher-bh' }).default('fisher-bh'),
    alpha: z.number().gt(0).lt(1).default(0.05),
    splits: z.number().int().min(10).default(1000),
    nullReplicates: z.number().int().min(200).default(200),
    /**
     * Interval of the aggregate Δ: a t interval over items, or a percentile bootstrap that
     * resamples whole domains (items of one domain may move together).
     */
    deltaInterval: z.enum(['items', 'domains']).default('items'),
    keepText: z.boolean().default(false),
    gate: z
      .object({
        /** A count ("7" or 7) or a share of items ("5%"). */
        maxDeteriorated: z
          .union(
            [
              z.number().int().min(0),
              z
                .string()
                .regex(
                  /^\d+(\.\d+)?%$/,
                  'expected a count such as 7 or a share of items such as "5%"',
                ),
            ],
            {
              error: 'expected a count such as 7 or a share of items such as "5%"',
            },
          )
          .default('5%'),
        /** Domains with fewer items are not tested for a loss. */
        minDomainItems: z.number().int().min(1).default(3),
        /**
         * A domain whose significant net loss reaches this many points of accuracy fails the
         * gate; a smaller significant loss warns.
         */
        maxDomainLoss: z.number().gt(0).max(100).default(5),
        maxTimeoutShare: z.number().min(0).max(1).default(0.05),
        maxInvalidShare: z.number().min(0).max(1).default(0.1),
      })
      .strict()
      .prefault({}),
  })
  .strict()
  .superRefine(checkSampling);

/** Adaptive sampling's settings must describe a design, and only the sampled estimator has one. */
function checkSampling(settings: ChurnSettingsShape, ctx: z.RefinementCtx): void {
  if (settings.sampling !== 'adaptive') return;
  const refuse = (key: string, message: string): void => {
    ctx.addIssue({ code: 'custom', path: [key], message });
  };
  if (settings.samplesFirst > settings.samplesMax) {
    refuse(
      'samplesFirst',
      `expected at most samples-max (${settings.samplesMax}), got ${settings.samplesFirst}`,
    );
  }
  if (settings.estimator === 'logprobs') {
    refuse(
      'sampling',
      'adaptive sampling stages sampled answers; with estimator: logprobs each item is evaluated once — set sampling: fixed, or estimator: sampled',
    );
  }
  if (settings.method === 'rci') {
    refuse(
      'sampling',
      'adaptive sampling needs method: fisher-bh (its exact test across stages); the Reliable Change Index assumes the same K for every item — set sampling: fixed, or method: fisher-bh',
    );
  }
}

type ChurnSettingsShape = {
  sampling: 'fixed' | 'adaptive';
  samplesFirst: number;
  samplesMax: number;
  estimator: 'sampled' | 'logprobs';
  method: 'fisher-bh' | 'rci';
};

export type ChurnSettings = z.infer<typeof churnSettingsSchema>;

declare module '../../config/schema.js' {
  /** The config's `churn:` block (the registry hands its schema to the config). */
  interface CheckSettingsBlocks {
    churn: ChurnSettings;
  }
}

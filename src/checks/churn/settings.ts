import { z } from 'zod';
import type { GateConfig } from '../../config/schema.js';
import { maxInvalidShare, maxTimeoutShare } from '../../config/shareLimit.js';
import { checkSettings } from '../settings.js';

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
export const churnSettingsSchema = checkSettings(
  {
    items: z
      .string()
      .min(1)
      .default(BUILT_IN_ITEMS)
      .describe(
        'the items: JSONL, JSON or YAML (docs/items.md); the default is the built-in set that ships with model-gate',
      ),
    samples: z
      .number()
      .int()
      .min(2)
      .max(1000)
      .optional()
      .meta({ examples: [10] })
      .describe(
        'K stochastic samples per item and model; setting it chooses fixed sampling (10 when sampling: fixed leaves it unset)',
      ),
    /**
     * `fixed`: `samples` per item and model. `adaptive`: a first stage of `samples-first`, then
     * stages of `samples-step` only for items still open, up to `samples-max`
     * (docs/adaptive-sampling.md).
     */
    sampling: z
      .enum(['fixed', 'adaptive'])
      .optional()
      .meta({ examples: ['adaptive'] })
      .describe(
        'fixed: samples per item and model; adaptive: in stages while an item is still open (docs/adaptive-sampling.md). Unset: adaptive up to samples-max, or fixed when samples is set, or with estimator: logprobs or method: rci',
      ),
    samplesFirst: z
      .number()
      .int()
      .min(2)
      .max(1000)
      .default(4)
      .describe('adaptive: samples of the first stage, per item and model'),
    samplesStep: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(4)
      .describe('adaptive: samples of each further stage (4, 8, 12, 16, 20 with the defaults)'),
    samplesMax: z
      .number()
      .int()
      .min(2)
      .max(1000)
      .default(20)
      .describe('adaptive: no item gets more samples per model'),
    /** An item stops once its pooled share right is at or below this, or at or above 1 − this. */
    settledShare: z
      .number()
      .min(0)
      .lt(0.5)
      .default(0.1)
      .describe(
        "adaptive: an item stops once both models' pooled share right is at most this, or at least 1 minus this",
      ),
    /**
     * Futility stop: at the first look from `futility-from` samples, an item whose p-value is
     * above this stops; the bar is multiplied by `futility-tighten` at each further look; 1: off.
     */
    futilityP: z
      .number()
      .gt(0)
      .max(1)
      .default(0.5)
      .describe(
        'adaptive: at the first look from futility-from samples on, an item whose p-value is above this stops as "no change shown" (the bar tightens by futility-tighten at each further look); 1: off',
      ),
    futilityFrom: z
      .number()
      .int()
      .min(1)
      .max(1000)
      .default(8)
      .describe('adaptive: samples per model from which the futility stop applies'),
    futilityTighten: z
      .number()
      .gt(0)
      .max(1)
      .default(0.4)
      .describe(
        'adaptive: the futility bar is multiplied by this at each look after the first (0.5, 0.2, 0.08 at 8, 12, 16 samples with the defaults); 1: the same bar at every look',
      ),
    /** Efficacy stop: an item whose change is already certain to be flagged stops sampling. */
    stopDecided: z
      .boolean()
      .default(true)
      .describe(
        'adaptive: an item stops as "decided" once its stage-wise p-value is at most alpha over the number of items (flagged whatever the other items show); false: off',
      ),
    temperature: z
      .number()
      .min(0)
      .max(2)
      .default(0.7)
      .describe('sampling temperature of the K samples'),
    baseSeed: z.number().int().min(0).default(1000).describe('sample k uses seed base-seed + k'),
    greedy: z
      .boolean()
      .default(true)
      .describe('one extra sample at temperature 0, seed greedy-seed'),
    greedySeed: z.number().int().min(0).default(42).describe('seed of the greedy sample'),
    think: z.boolean().default(false).describe('ask thinking models to think before they answer'),
    numPredict: z.number().int().min(1).default(32).describe('most tokens an answer may take'),
    /**
     * `sampled`: K answers per item, p = x/n. `logprobs`: one evaluation per item that reads
     * the probability of each letter (embedded provider, or Ollama ≥ 0.12.11 token logprobs).
     */
    estimator: renamedChoice(['sampled', 'logprobs'], { exact: 'logprobs' })
      .default('sampled')
      .describe(
        'sampled (K answers per item) | logprobs (the probability of each answer letter: embedded provider, or Ollama 0.12.11 and later)',
      ),
    /** Logprobs estimator: the |Δp| from which an item counts as improved or deteriorated. */
    minEffect: z
      .number()
      .gt(0)
      .max(1)
      .default(0.2)
      .describe(
        'logprobs: the change of p(correct) that counts as a change (no sampling noise to test)',
      ),
    /** Logprobs estimator over Ollama: alternatives returned per token (the server allows 20). */
    topLogprobs: z
      .number()
      .int()
      .min(1)
      .max(20)
      .default(20)
      .describe('logprobs through Ollama: alternatives asked per token (1 to 20)'),
    /** `fisher-bh`: Fisher's exact test per item + Benjamini–Hochberg. `rci`: Reliable Change Index. */
    method: renamedChoice(['fisher-bh', 'rci'], { exact: 'fisher-bh' })
      .default('fisher-bh')
      .describe(
        "fisher-bh (Fisher's exact test + Benjamini-Hochberg, the gate) | rci (the Reliable Change Index, for comparison)",
      ),
    alpha: z.number().gt(0).lt(1).default(0.05).describe('false discovery rate of the item tests'),
    splits: z
      .number()
      .int()
      .min(10)
      .default(1000)
      .describe('rci: reliability splits (all distinct splits when there are fewer)'),
    nullReplicates: z
      .number()
      .int()
      .min(200)
      .default(200)
      .describe(
        'parametric bootstrap replicates of two identical models (the null calibration of every count)',
      ),
    /**
     * Interval of the aggregate Δ: a t interval over items, or a percentile bootstrap that
     * resamples whole domains (items of one domain may move together).
     */
    deltaInterval: z
      .enum(['items', 'domains'])
      .default('items')
      .describe(
        'interval of the overall change of accuracy: items (t interval over items) | domains (bootstrap of whole domains, which may move together)',
      ),
    keepText: z
      .boolean()
      .default(false)
      .describe('keep the raw answers in the sample log (debugging)'),
  },
  {
    /** A count ("7" or 7) or a share of items ("5%"). */
    maxDeteriorated: z
      .union(
        [
          z.number().int().min(0),
          z
            .string()
            .regex(/^\d+(\.\d+)?%$/, 'expected a count such as 7 or a share of items such as "5%"'),
        ],
        {
          error: 'expected a count such as 7 or a share of items such as "5%"',
        },
      )
      .default('5%')
      .describe(
        'a count (7) or a share of items ("5%"); fails only above what two identical models reach',
      ),
    /** Domains with fewer items are not tested for a loss. */
    minDomainItems: z
      .number()
      .int()
      .min(1)
      .default(3)
      .describe('domains with fewer items are not tested for a loss'),
    /**
     * A domain whose significant net loss reaches this many points of accuracy fails the
     * gate; a smaller significant loss warns.
     */
    maxDomainLoss: z
      .number()
      .gt(0)
      .max(100)
      .default(5)
      .describe(
        'points: a domain with a significant net loss this large fails (a smaller significant loss warns)',
      ),
    maxTimeoutShare: maxTimeoutShare(),
    maxInvalidShare: maxInvalidShare(),
  },
  {
    gate: 'what fails or warns',
    block: 'which items the upgrade reliably improved or broke, in which domains',
  },
).superRefine(checkSampling);

/** K when fixed sampling is chosen without `samples`. */
export const FIXED_SAMPLES_DEFAULT = 10;

/**
 * Why the sampling is what it is: written (`sampling:`), implied by `samples` (K is asked for),
 * by `estimator: logprobs` (each item evaluated once) or `method: rci` (one K for every item),
 * or the default (adaptive up to `samples-max`).
 */
export function samplingChoice(settings: SamplingSettings): SamplingChoice {
  if (settings.sampling !== undefined) return 'set';
  if (settings.samples !== undefined) return 'samples';
  if (settings.estimator === 'logprobs') return 'estimator';
  if (settings.method === 'rci') return 'method';
  return 'default';
}

/** The sampling a config gets (see samplingChoice). */
export function samplingOf(settings: SamplingSettings): 'fixed' | 'adaptive' {
  return settings.sampling ?? (samplingChoice(settings) === 'default' ? 'adaptive' : 'fixed');
}

/** K of fixed sampling: `samples`, else 10. */
export function fixedSamples(settings: { samples?: number | undefined }): number {
  return settings.samples ?? FIXED_SAMPLES_DEFAULT;
}

interface SamplingSettings {
  sampling?: 'fixed' | 'adaptive' | undefined;
  samples?: number | undefined;
  estimator: 'sampled' | 'logprobs';
  method: 'fisher-bh' | 'rci';
}

/** Why the sampling is what it is: written, implied by `samples`, by the estimator or method, or the default. */
export type SamplingChoice = 'set' | 'samples' | 'estimator' | 'method' | 'default';

/** Adaptive sampling's settings must describe a design, and only the sampled estimator has one. */
function checkSampling(
  settings: SamplingSettings & { samplesFirst: number; samplesMax: number },
  ctx: z.RefinementCtx,
): void {
  if (samplingOf(settings) !== 'adaptive') return;
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

export type ChurnSettings = z.infer<typeof churnSettingsSchema>;

/** The config as the churn check reads it: its `churn:` block typed. */
export type ChurnConfig = GateConfig & { churn: ChurnSettings };

/**
 * The `churn` part of report.json: plain JSON, rendered by report/markdown.ts.
 * Shares are fractions in [0, 1]; accuracies are means of per-item accuracy p (x/n with the
 * sampled estimator, the probability of the correct letter with the logprobs one).
 */
import { z } from 'zod';
import { sectionSchema } from '../types.js';
import type { DomainTestRow, OverallTest } from './domainTest.js';

export interface Interval {
  low: number | null;
  high: number | null;
}

/** Paired mean of per-item Δp with a 95% t interval (or a domain-cluster bootstrap). */
export type AggregateDelta = {
  mean: number | null;
  n: number;
  interval: 'items' | 'domains';
} & Interval;

export interface CountShare extends Interval {
  count: number;
  /** count / base; null when the base is empty. */
  share: number | null;
}

/** A model's accuracy and what became of its requests (both estimators). */
export interface ModelShares {
  model: string;
  /** Mean of item p (or p(correct)), with a t interval over items. */
  accuracy: { mean: number | null } & Interval;
  requests: { total: number; ok: number; invalid: number; timeout: number; error: number };
  invalidShare: number | null;
  timeoutShare: number | null;
}

export interface ModelSummary extends ModelShares {
  /** Items with at least one valid stochastic sample. */
  itemsAnswered: number;
  /** Median split-half reliability (Spearman–Brown) over all items. */
  reliability: number | null;
  /** Greedy accuracy over items with a valid greedy answer; null without greedy samples. */
  greedyAccuracy: number | null;
}

export interface FlagSet {
  /** Items the shares are taken over. */
  base: number;
  improved: CountShare;
  deteriorated: CountShare;
  unchanged: CountShare;
}

export interface NullSummary {
  mean: number;
  p95: number;
  /**
   * Quantile at 1 − the max-deteriorated rule's share of the false-alarm budget: the count two
   * identical models exceed in at most that share of runs (absent in older reports).
   */
  upper?: number;
}

/** How the items a rule flagged add up (Fisher + BH, RCI and min-effect alike). */
export interface FlaggedSummary {
  improved: number;
  deteriorated: number;
  all: FlagSet;
  /** (improved + deteriorated) / all items. */
  churnRate: number | null;
  net: number;
  /** Median |Δp| of the changed items. */
  medianAbsDelta: number | null;
  /** Improved / items with Δp > 0. */
  breadthRatio: number | null;
}

export interface MethodSection extends FlaggedSummary {
  method: 'fisher-bh' | 'rci';
  analysable: FlagSet;
  /** What two identical models would produce (parametric bootstrap). */
  expected: {
    improved: NullSummary;
    deteriorated: NullSummary;
    flagged: NullSummary;
    falseFlagRate: number;
  };
}

export interface FisherBhMethodSection extends MethodSection {
  method: 'fisher-bh';
  alpha: number;
  /** Counts on the raw Fisher p ≤ α, before FDR control. */
  rawP: { improved: number; deteriorated: number };
}

export interface RciMethodSection extends MethodSection {
  method: 'rci';
  reliability: { baseline: number | null; candidate: number | null };
  /** Every distinct split used (exact r_xx) or random ones (seeded). */
  splits: { count: number; exhaustive: boolean };
  sd: { baseline: number | null; candidate: number | null };
  sem: { baseline: number | null; candidate: number | null };
  sDiff: number | null;
  /** 1.96·S_diff, and the same in samples: ceil(Δp_min·K). */
  minDetectableDelta: number | null;
  minDetectableSamples: number | null;
  conservative: { critical: number; improved: number; deteriorated: number };
}

export interface DomainRow {
  domain: string;
  items: number;
  baselineAccuracy: number | null;
  candidateAccuracy: number | null;
  delta: number | null;
  /**
   * 95% t interval of `delta` over the domain's items (null ends with fewer than 2 items).
   * Absent in reports written before it was added.
   */
  deltaCi?: Interval;
  improved: number;
  deteriorated: number;
  net: number;
  /**
   * The domain lost accuracy: a significant net loss by its test (sampled estimator), or a
   * mean loss of at least max-domain-loss (logprobs estimator, no sampling noise).
   */
  loss: boolean;
  /** The same for a gain. */
  gain: boolean;
  /** A loss while the overall change is significantly up, or a gain while it is significantly down. */
  reversal: boolean;
  /** Sampled estimator: the domain's net-change test (null when it has too few items). */
  test: DomainTestRow | null;
}

/** Smallest changes detected with 80% power, and the K that smaller ones would need. */
export interface Detection {
  power: number;
  /** Smallest item change flagged by Fisher + BH at this K (normal approximation, p near 0.5). */
  itemFisherBh: number | null;
  /** Smallest item change flagged by the RCI: (1.96 + 0.84)·S_diff. */
  itemRci: number | null;
  /** Smallest net loss of the smallest tested domain, in accuracy (0–1). */
  domain: number | null;
  /** Items of that domain. */
  domainItems: number | null;
  /** K per model needed to detect each effect (item: |Δp| of one item; domain: net loss). */
  samplesFor: { kind: 'item' | 'domain'; effect: number; samples: number }[];
}

/** The domain rule's test settings and the overall change it labels reversals with. */
export interface DomainTestSummary {
  /** Family-wise level of the domain tests (the rule's share of the false-alarm budget). */
  level: number;
  /** Domains with fewer items are not tested. */
  minItems: number;
  overall: OverallTest;
}

export interface BandRow {
  /** Baseline accuracy range [low, high) (the last band includes 1). */
  low: number;
  high: number;
  items: number;
  fisherBh: BandCounts;
  rci: BandCounts;
}

/** A method's flags in one band, and what two identical models give there. */
export interface BandCounts {
  improved: number;
  deteriorated: number;
  expectedImproved: number;
  expectedDeteriorated: number;
}

export interface GreedySection {
  items: number;
  baselineAccuracy: number | null;
  candidateAccuracy: number | null;
  delta: number | null;
  /** Discordant pairs: right → wrong and wrong → right. */
  worse: number;
  better: number;
  midP: number;
  exactP: number;
}

export interface GreedyVsStochastic {
  /** Reliably changed items (gate method) with a greedy answer from both models. */
  changed: number;
  /** Of those, greedy did not move in the same direction. */
  missed: number;
  missedShare: number | null;
  unchanged: number;
  /** Of the analysable unchanged items, greedy correctness differed. */
  flipped: number;
  flippedShare: number | null;
}

export type ItemClass = 'improved' | 'deteriorated' | 'unchanged' | 'excluded';
export type ExclusionReason = 'low-valid' | 'floor' | 'ceiling';

export interface ItemRow {
  id: string;
  domain: string;
  x: [number, number];
  n: [number, number];
  p: [number | null, number | null];
  delta: number | null;
  excluded: ExclusionReason | null;
  fisherP: number | null;
  q: number | null;
  rci: number | null;
  fisherBh: ItemClass;
  rciClass: ItemClass;
  greedy: [boolean | null, boolean | null];
  /** Open items only: the grader that graded the answers (`json (schema)`). */
  grader?: string;
  /** Open items only: that grader's fingerprint (graders version and a hash of its definition). */
  graderFingerprint?: string;
  /** Open items with a label grader: stochastic answers none of the labels, per model. */
  offLabel?: [number, number];
  /**
   * Open items a method flagged: one right and one wrong answer of each model (null when the
   * model gave none), as logged, cut to EXAMPLE_LIMIT characters. Untrusted model text.
   */
  examples?: { baseline: AnswerPair; candidate: AnswerPair };
}

/** A right and a wrong answer of one model to one open item. */
export interface AnswerPair {
  correct: string | null;
  wrong: string | null;
}

export interface ChurnComparison {
  delta: AggregateDelta;
  greedy: GreedySection | null;
  fisherBh: FisherBhMethodSection;
  rci: RciMethodSection;
  domains: DomainRow[];
  /** Domains that lost (or gained) while the overall change is significantly the other way. */
  reversals: string[];
  domainTest: DomainTestSummary;
  detection: Detection;
  bands: BandRow[];
  greedyVsStochastic: GreedyVsStochastic | null;
  null: { replicates: number; seed: number };
  items: ItemRow[];
}

/** Sampled estimator: K answers per item and model, p = x/n, reliable change by test. */
export interface SampledChurnSection {
  check: 'churn';
  /** Reports written before the logprobs estimator existed lack it; they are sampled. */
  estimator: 'sampled';
  promptVersion: string;
  /** The method the gate uses. */
  method: 'fisher-bh' | 'rci';
  alpha: number;
  samples: number;
  temperature: number;
  itemCounts: {
    total: number;
    analysable: number;
    lowValid: number;
    floor: number;
    ceiling: number;
  };
  baseline: ModelSummary;
  candidate: ModelSummary | null;
  /** Null in single-model (nightly) mode. */
  comparison: ChurnComparison | null;
  /** `churn.sampling: adaptive`: the design and what it spent; absent at a fixed K. */
  sampling?: AdaptiveSamplingSummary;
  /** Open items (free-form answers graded by the analysis); absent when there are none. */
  openItems?: OpenItemsSummary;
  warnings: string[];
}

/** Logprobs estimator: one model's series. */
export interface LogprobsModelSummary extends ModelShares {
  /** Where the probabilities were read; more than one when a log mixes providers. */
  sources: ('embedded-logits' | 'ollama-logprobs')[];
  /** Items with a measured p(correct). */
  itemsMeasured: number;
  /** Share of measured items whose most probable letter is the correct one. */
  topLetterAccuracy: number | null;
}

/** Logprobs estimator: what changed by at least the minimum effect, counted like a method. */
export interface EffectMethodSection extends FlaggedSummary {
  method: 'effect';
  /** |Δp| from which an item counts as changed. */
  minEffect: number;
  /** Over items measured for both models (`all`: over all items). */
  measured: FlagSet;
  /** Items whose |Δp| reaches each threshold, so a reader sees where min-effect cuts. */
  beyond: { threshold: number; items: number }[];
}

export type EffectClass = 'improved' | 'deteriorated' | 'unchanged' | 'unmeasured';

export interface LogprobsItemRow {
  id: string;
  domain: string;
  /** p(correct) at the estimator temperature, baseline then candidate. */
  p: [number | null, number | null];
  delta: number | null;
  effect: EffectClass;
}

export interface LogprobsComparison {
  delta: AggregateDelta;
  effect: EffectMethodSection;
  /** Same rows as the sampled estimator; counts are items beyond min-effect. */
  domains: DomainRow[];
  /** Whether the overall Δ's 95% interval excludes 0, and which way. */
  overallDirection: 'up' | 'down' | null;
  reversals: string[];
  items: LogprobsItemRow[];
}

/**
 * Logprobs estimator: one evaluation per item and model gives p(correct) without sampling noise,
 * so the question is how large Δp is, not whether it is significant.
 */
export interface LogprobsChurnSection {
  check: 'churn';
  estimator: 'logprobs';
  promptVersion: string;
  /** The gate counts items with |Δp| ≥ min-effect. */
  method: 'effect';
  /** Temperature p(correct) is computed at (churn.temperature). */
  temperature: number;
  minEffect: number;
  itemCounts: { total: number; measured: number; unmeasured: number };
  baseline: LogprobsModelSummary;
  candidate: LogprobsModelSummary | null;
  /** Null in single-model (nightly) mode. */
  comparison: LogprobsComparison | null;
  warnings: string[];
}

export type ChurnSection = SampledChurnSection | LogprobsChurnSection;

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
    /** Per stage end (samples per model): the items whose path ended there, and why. */
    stopped: z.array(
      z.object({
        samples: count,
        items: count,
        settled: count,
        /** Stopped early: the change already certain to be flagged. */
        decided: count,
        futility: count,
        samplesMax: count,
        /** Not finished: a stage incomplete (an interrupted run) or decided but not taken. */
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

/** What adaptive sampling took: its design, its requests against a fixed K, where items stopped. */
export type AdaptiveSamplingSummary = z.infer<typeof adaptiveSamplingSchema>;

/** Open items of the run: how many, which graders, and what grading the log's answers found. */
export type OpenItemsSummary = z.infer<typeof openItemsSchema>;

/**
 * The section as a schema: open (fields of another version are kept), its `check` tag and, when
 * present, the adaptive-sampling and open-items summaries validated.
 */
export const churnSectionSchema = sectionSchema<ChurnSection>('churn', {
  sampling: adaptiveSamplingSchema.optional(),
  openItems: openItemsSchema.optional(),
});

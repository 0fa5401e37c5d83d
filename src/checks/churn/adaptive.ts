/**
 * Adaptive sampling of churn items: a first stage of samples per item and model, then further
 * stages only for items whose answer is still open, up to a maximum.
 *
 * Why the tests stay exact. Under "no change" an item's samples from both models are
 * exchangeable draws of one Bernoulli variable. Within one stage, given the stage's pooled
 * successes t (both models together), the candidate's share of them is hypergeometric whatever
 * t is, independently of the other stages. The rule below decides to continue from the pooled
 * counts only — never from how they split between the models — so, given the sequence of stage
 * totals, the number of stages is fixed and the splits keep their hypergeometric laws. The item
 * test is therefore the exact conditional test with one stratum per stage
 * (src/stats/stagedExact.ts), and the domain test the stratified exact test with one stratum
 * per item and stage: both exact whatever path the stopping took. Pooling an item's stages into
 * one table would not be: swapping samples across stages changes the totals the rule looked at.
 */

import { z } from 'zod';
import type { SampleRecord } from '../../sampleLog/index.js';
import { conditionalExactTwoSided } from '../../stats/stagedExact.js';
import { stageWiseTwoSided } from '../../stats/stageWiseExact.js';
import type { Stratum } from '../../stats/stratifiedExact.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

export interface AdaptiveDesign {
  /** Samples per model in the first stage. */
  firstStage: number;
  /** Samples per model in each further stage. */
  stage: number;
  /** No item gets more samples per model than this. */
  samplesMax: number;
  /**
   * An item stops once its pooled share of successes is at or below this, or at or above
   * 1 − this: so near 0 or 1 that no change reaching the tests' level is plausible.
   */
  settledShare: number;
  /**
   * Optional futility stop: once an item has `fromSamples` samples per model, it stops as "no
   * change shown" when its interim two-sided p-value is above `pAbove` at that first look, and
   * above `pAbove × tighten^j` at the j-th look after it (`tighten` 1: the same bar at every
   * look). A bar that tightens lets an item with a visible change go on early and stops, later,
   * one whose change stays too small to be flagged by the last stage. This looks at the split,
   * so an item stopped this way reports p = 1 (never a rejection). Every stage taken enters the
   * domain test; the stages after a futility look were taken knowing the split, so that test's
   * level is measured by simulation (docs/adaptive-sampling.md).
   */
  futility?: { fromSamples: number; pAbove: number; tighten?: number };
  /**
   * Optional efficacy stop: an item stops as "decided" once its stage-wise p-value
   * (src/stats/stageWiseExact.ts) is at or below `pAtMost`. The item test is then the stage-wise
   * one for every item, which keeps its level whatever stops; with `pAtMost` at most α over the
   * number of items tested, a decided item is flagged by Benjamini–Hochberg whatever the others do.
   * `byLook`: the bound at each look (0-based; the last holds after it) once the items already
   * decided are counted (`countingDecided`), each at least `pAtMost`.
   */
  decided?: { pAtMost: number; byLook?: readonly number[] };
}

/** One stage of one item: successes and samples of each model in that stage. */
export interface StageCounts {
  baselineCorrect: number;
  baselineSamples: number;
  candidateCorrect: number;
  candidateSamples: number;
}

const positive = z.number().int().min(1);
const probability = z.number().gt(0).lt(1);

/** A design that can run: the bounds `AdaptiveDesign` states, as a schema. */
const designSchema = z
  .object({
    firstStage: positive,
    stage: positive,
    samplesMax: positive,
    settledShare: z.number().min(0).lt(0.5),
    futility: z
      .object({
        fromSamples: positive,
        pAbove: probability,
        tighten: z.number().gt(0).max(1).optional(),
      })
      .optional(),
    decided: z.object({ pAtMost: probability, byLook: z.array(z.number()).optional() }).optional(),
  })
  .refine((d) => d.firstStage <= d.samplesMax, {
    message: 'firstStage is above samplesMax',
    path: ['firstStage'],
  });

export function checkDesign(design: AdaptiveDesign): void {
  const parsed = designSchema.safeParse(design);
  if (parsed.success) return;
  const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  throw new RangeError(`adaptive design: ${issues.join('; ')}`);
}

/**
 * What to do with an item after a stage, from its pooled counts so far only: `pooledCorrect`
 * successes of `pooledSamples` samples (both models together), `samplesPerModel` taken so far
 * per model. Taking the pooled counts, not the per-model ones, is what keeps the tests exact.
 */
export function decideNextStage(
  pooledCorrect: number,
  pooledSamples: number,
  samplesPerModel: number,
  design: AdaptiveDesign,
): NextStage {
  if (samplesPerModel >= design.samplesMax) return { action: 'stop', reason: 'samples-max' };
  if (pooledSamples > 0) {
    const share = pooledCorrect / pooledSamples;
    if (share <= design.settledShare || share >= 1 - design.settledShare) {
      return { action: 'stop', reason: 'settled' };
    }
  }
  return {
    action: 'continue',
    samples: Math.min(design.stage, design.samplesMax - samplesPerModel),
  };
}

/** An item's stages as strata of the exact conditional tests (baseline = group 1). */
export function stageStrata(stages: readonly StageCounts[]): Stratum[] {
  return stages.map((s) => ({
    x1: s.baselineCorrect,
    n1: s.baselineSamples,
    x2: s.candidateCorrect,
    n2: s.candidateSamples,
  }));
}

/**
 * Two-sided exact p-value of "no change" for one item sampled in stages: the staged test, or
 * the stage-wise one when the design stops decided items.
 */
export function adaptiveItemPValue(
  stages: readonly StageCounts[],
  design?: AdaptiveDesign,
): number {
  const strata = stageStrata(stages);
  return design?.decided === undefined
    ? conditionalExactTwoSided(strata)
    : stageWiseTwoSided(strata, design.decided.pAtMost, design.decided.byLook).pValue;
}

/** Whether the efficacy look after the last of `stages` stops the item as decided. */
function isDecided(stages: readonly StageCounts[], design: AdaptiveDesign): boolean {
  if (design.decided === undefined) return false;
  const { byLook, pAtMost } = design.decided;
  return stageWiseTwoSided(stageStrata(stages), pAtMost, byLook).stoppedAt !== null;
}

/** Why an item's sampling ends. */
export type StopReason = 'settled' | 'samples-max' | 'decided' | 'futility';

/** The stage decision: another stage of `samples` per model, or a stop and its reason. */
export type NextStage =
  | { action: 'continue'; samples: number }
  | { action: 'stop'; reason: StopReason };

/**
 * The one stage decision of adaptive sampling, a pure function of an item's state: the stages
 * it took (each complete) and `samplesPerModel`, the samples per model they reached. The runner
 * plans an item's next stage with it, the analysis replays with it which samples the item's
 * path took and why it stopped, and the benchmarks sample with it: they cannot disagree.
 * The pooled rules come first (samples-max, settled: they never look at the split), then the
 * efficacy stop, then the futility stop.
 */
export function nextStage(
  stages: readonly StageCounts[],
  samplesPerModel: number,
  design: AdaptiveDesign,
): NextStage {
  let pooledCorrect = 0;
  let pooledSamples = 0;
  for (const s of stages) {
    pooledCorrect += s.baselineCorrect + s.candidateCorrect;
    pooledSamples += s.baselineSamples + s.candidateSamples;
  }
  const pooled = decideNextStage(pooledCorrect, pooledSamples, samplesPerModel, design);
  if (pooled.action === 'stop') return pooled;
  if (isDecided(stages, design)) return { action: 'stop', reason: 'decided' };
  if (isFutile(stages, design)) return { action: 'stop', reason: 'futility' };
  return pooled;
}

/**
 * Samples an item stage by stage: `draw(model, from, count)` returns the successes of samples
 * from…from+count−1 of that model (sample k uses seed base-seed + k, so stages extend a fixed
 * run's records). Returns the stages taken.
 */
export function sampleItemAdaptively(
  draw: (model: 'baseline' | 'candidate', from: number, count: number) => number,
  design: AdaptiveDesign,
): StageCounts[] {
  checkDesign(design);
  const stages: StageCounts[] = [];
  let taken = 0;
  let size = design.firstStage;
  for (;;) {
    const baselineCorrect = draw('baseline', taken, size);
    const candidateCorrect = draw('candidate', taken, size);
    stages.push({
      baselineCorrect,
      baselineSamples: size,
      candidateCorrect,
      candidateSamples: size,
    });
    taken += size;
    const decision = nextStage(stages, taken, design);
    if (decision.action === 'stop') return stages;
    size = decision.samples;
  }
}

/**
 * The futility bar at the look after the last of `stages`, or null before the first futility
 * look. Looks are counted by the planned stage ends (first stage, then `stage` more each), so
 * an invalid sample, which leaves a stage short, never changes which look an item is at.
 */
export function futilityBar(stages: number, design: AdaptiveDesign): number | null {
  const futility = design.futility;
  if (futility === undefined) return null;
  let end = design.firstStage;
  let looks = end >= futility.fromSamples ? 1 : 0;
  for (let j = 1; j < stages; j++) {
    end = Math.min(design.samplesMax, end + design.stage);
    if (end >= futility.fromSamples) looks++;
  }
  if (looks === 0) return null;
  return futility.pAbove * (futility.tighten ?? 1) ** (looks - 1);
}

/** Whether the futility look after the last of `stages` stops the item. */
function isFutile(stages: readonly StageCounts[], design: AdaptiveDesign): boolean {
  const bar = futilityBar(stages.length, design);
  if (bar === null) return false;
  return adaptiveItemPValue(stages) > bar;
}

export interface AdaptiveItemTest {
  /** Exact two-sided p-value across stages; 1 for an item stopped for futility. */
  pValue: number;
  futile: boolean;
  /** Stopped before its last stage because its change was decided. */
  decided: boolean;
  /** Every stage taken, one stratum each: what the item brings to its domain's test. */
  domainStrata: Stratum[];
}

/**
 * The item's test after adaptive sampling. A futility stop only ever turns a possible rejection
 * into none, so the reported p-value is at least the one the pooled-only path would have given
 * and stays valid (super-uniform) under no change.
 */
export function adaptiveItemTest(
  stages: readonly StageCounts[],
  design: AdaptiveDesign,
): AdaptiveItemTest {
  const samplesPerModel = stages.reduce((sum, s) => sum + s.baselineSamples, 0);
  const decision = nextStage(stages, samplesPerModel, design);
  const decided = decision.action === 'stop' && decision.reason === 'decided';
  const futile = decision.action === 'stop' && decision.reason === 'futility';
  return {
    pValue: futile ? 1 : adaptiveItemPValue(stages, design),
    futile,
    decided,
    domainStrata: stageStrata(stages),
  };
}

/**
 * The design of `churn.sampling: adaptive`; `futility-p: 1` turns the futility stop off. With
 * `stop-decided`, an item stops once its stage-wise p-value is at or below alpha / `items` (the
 * items of the whole plan, whichever slice runs): Benjamini–Hochberg over at most that many
 * items flags it whatever the others show.
 */
export function designOf(
  settings: {
    samplesFirst: number;
    samplesStep: number;
    samplesMax: number;
    settledShare: number;
    futilityP: number;
    futilityFrom: number;
    futilityTighten: number;
    stopDecided: boolean;
    alpha: number;
  },
  items: number,
): AdaptiveDesign {
  return {
    ...(settings.stopDecided && items > 0 ? { decided: { pAtMost: settings.alpha / items } } : {}),
    firstStage: settings.samplesFirst,
    stage: settings.samplesStep,
    samplesMax: settings.samplesMax,
    settledShare: settings.settledShare,
    ...(settings.futilityP < 1
      ? {
          futility: {
            fromSamples: settings.futilityFrom,
            pAbove: settings.futilityP,
            tighten: settings.futilityTighten,
          },
        }
      : {}),
  };
}

/**
 * One sample of one model: true or false when answered, null when recorded without a valid
 * answer (timeout, invalid, error), undefined when not taken (yet).
 */
export type SampleOutcome = boolean | null | undefined;

export type PathStop = StopReason | 'open';

export interface ItemPath {
  /** Stages taken, each with the valid samples and successes of both models. */
  stages: StageCounts[];
  /** Samples per model the path has reached: the end of its last stage. */
  samples: number;
  /**
   * Why it ended: settled, samples-max, decided, futility, or `open` — a stage not complete yet (its
   * samples are in `stages` as far as they go), or a next stage decided but not started.
   */
  stop: PathStop;
  /** Samples per model the item needs so far: `samples`, or the end of its next stage. */
  wanted: number;
}

/**
 * Replays the stage decision (`nextStage`) over the outcomes known: stage after stage, as long
 * as each stage is complete for both models (every sample recorded, valid or not) and the
 * decision continues. The runner uses it to know which samples to ask next (the churn plan's
 * growth, stagedPlan.ts), the analysis to know which samples the path took (adaptiveAnalysis.ts): samples beyond it (a fixed run's, say) never enter the tests. Counting a recorded
 * but invalid sample as taken keeps the path a function of the log alone.
 */
export function replayItem(
  outcome: (model: 0 | 1, sample: number) => SampleOutcome,
  design: AdaptiveDesign,
): ItemPath {
  const stages: StageCounts[] = [];
  let from = 0;
  let size = design.firstStage;
  for (;;) {
    const to = from + size;
    const stage = {
      baselineCorrect: 0,
      baselineSamples: 0,
      candidateCorrect: 0,
      candidateSamples: 0,
    };
    let recorded = 0;
    for (let k = from; k < to; k++) {
      for (const model of [0, 1] as const) {
        const value = outcome(model, k);
        if (value === undefined) continue;
        recorded++;
        if (value === null) continue;
        if (model === 0) stage.baselineSamples++;
        else stage.candidateSamples++;
        if (value && model === 0) stage.baselineCorrect++;
        if (value && model === 1) stage.candidateCorrect++;
      }
    }
    if (recorded === 0 && from > 0) return { stages, samples: from, stop: 'open', wanted: to };
    stages.push(stage);
    if (recorded < 2 * size) return { stages, samples: to, stop: 'open', wanted: to };
    const decision = nextStage(stages, to, design);
    if (decision.action === 'stop')
      return { stages, samples: to, stop: decision.reason, wanted: to };
    from = to;
    size = decision.samples;
  }
}

/**
 * The efficacy bound of each look, counting the items decided: with D items decided at this
 * look or before it, the bound is D × `pAtMost` (α over the items; `pAtMost` while D is 0). The
 * D items then all lie at or below α × D / items (an earlier one at or below its own, smaller
 * bound), so Benjamini–Hochberg flags every one of them whatever the others show. Where many
 * items move a lot, each decided item lets others stop a stage sooner; where few move, the
 * bound stays α over the items. `decidedAt` holds the look (0-based) of each item decided so far.
 *
 * The item test keeps its level: an item at a look is decided once the others alone raise the
 * bound to its p-value (its own decision only raises the bound further), so its bound at each
 * look is set by the other items, independent of its own samples under "no change".
 */
export function countingDecided(
  design: AdaptiveDesign,
  decidedAt: Iterable<number>,
): AdaptiveDesign {
  if (design.decided === undefined) return design;
  const looks = 1 + Math.ceil((design.samplesMax - design.firstStage) / design.stage);
  const perLook = new Array<number>(looks).fill(0);
  for (const look of decidedAt) {
    const at = Math.min(look, looks - 1);
    perLook[at] = (perLook[at] ?? 0) + 1;
  }
  const { pAtMost } = design.decided;
  let decided = 0;
  const byLook = perLook.map((n) => {
    decided += n;
    return pAtMost * Math.max(1, decided);
  });
  return { ...design, decided: { pAtMost, byLook } };
}

/**
 * Replays every item's path (`outcome(i, model, sample)` for item i), each look's efficacy
 * bound counting the items decided (`countingDecided`): from α over the items everywhere, the
 * paths are replayed and the bounds raised until they no longer move. The bounds only rise, so
 * this ends (at most once per item decided), a function of the log alone. A runner that counted
 * fewer (another shard's items, or items still on their way) stopped no item this replay
 * continues: its bounds were no larger.
 */
export function replayItems(
  count: number,
  outcome: (item: number, model: 0 | 1, sample: number) => SampleOutcome,
  design: AdaptiveDesign,
): { paths: ItemPath[]; design: AdaptiveDesign } {
  let current = countingDecided(design, []);
  for (;;) {
    const paths = Array.from({ length: count }, (_, i) =>
      replayItem((model, sample) => outcome(i, model, sample), current),
    );
    const next = countingDecided(design, decidedLooks(paths));
    const before = current.decided?.byLook ?? [];
    const after = next.decided?.byLook ?? [];
    if (after.every((bound, j) => bound === before[j])) return { paths, design: current };
    current = next;
  }
}

/** The look (0-based) of every path stopped as decided. */
export function decidedLooks(paths: Iterable<ItemPath>): number[] {
  const looks: number[] = [];
  for (const path of paths) if (path.stop === 'decided') looks.push(path.stages.length - 1);
  return looks;
}

/**
 * Every stochastic sample of every item, as adaptive sampling sees it: per model and sample
 * index, answered right, wrong, recorded without a valid answer, or not taken. The runner's
 * growing plan and the analysis both read an item's path from here, so they agree on it.
 */
/** One sample's outcome as the analysis counts it (tally.ts): answered right or wrong, or not valid. */
export function sampleOutcome(record: ChurnCallRecord): SampleOutcome {
  return record.status === 'ok' && record.correct !== null ? record.correct : null;
}

export class StageOutcomes {
  private readonly byItem = new Map<string, Map<number, SampleOutcome>[]>();
  /** Baseline, then the candidate; one model (nightly, or the same tag twice) stands for both. */
  readonly models: readonly string[];

  constructor(baseline: string, candidate: string | null) {
    this.models = candidate === null || candidate === baseline ? [baseline] : [baseline, candidate];
  }

  /** Takes a stochastic churn record of one of the models; returns its item, else null. */
  add(record: SampleRecord): string | null {
    if (!isChurnCall(record) || record.mode !== 'stochastic') {
      return null;
    }
    const model = this.models.indexOf(record.model);
    if (model < 0) return null;
    const maps = this.byItem.get(record.item) ?? this.models.map(() => new Map());
    this.byItem.set(record.item, maps);
    maps[model]?.set(record.sample, sampleOutcome(record));
    return record.item;
  }

  outcome(item: string, model: 0 | 1, sample: number): SampleOutcome {
    const maps = this.byItem.get(item);
    return maps?.[Math.min(model, maps.length - 1)]?.get(sample);
  }

  path(item: string, design: AdaptiveDesign): ItemPath {
    return replayItem((model, sample) => this.outcome(item, model, sample), design);
  }

  /** Samples recorded (valid or not) below `end`, over the models of the run. */
  recorded(item: string, end: number): number {
    let count = 0;
    for (const map of this.byItem.get(item) ?? []) {
      for (const sample of map.keys()) if (sample < end) count++;
    }
    return count;
  }
}

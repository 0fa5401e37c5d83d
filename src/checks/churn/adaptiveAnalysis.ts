/**
 * The analysis side of adaptive sampling: which samples each item's path took (replayed from
 * the log with the same rule the runner used), the tests those samples call for (exact across
 * stages, per item and per domain), and what the design cost against a fixed K at samples-max.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import { popcount, type SampleMasks } from '../../stats/splitHalf.js';
import type { Stratum } from '../../stats/stratifiedExact.js';
import {
  type AdaptiveDesign,
  adaptiveItemTest,
  designOf,
  type ItemPath,
  replayItems,
  type StageCounts,
  StageOutcomes,
} from './adaptive.js';
import type { ChurnItem } from './items.js';
import type { StagedItems } from './methods.js';
import type { AdaptiveSamplingSummary } from './section.js';
import type { ChurnSettings } from './settings.js';

export interface AdaptivePaths {
  design: AdaptiveDesign;
  /** Per item (in item order). */
  paths: ItemPath[];
  /** Samples per model each item's path reached. */
  planned: Int32Array;
  summary: AdaptiveSamplingSummary;
}

export function adaptivePaths(
  records: readonly SampleRecord[],
  items: readonly ChurnItem[],
  settings: ChurnSettings,
  baseline: string,
  candidate: string | null,
): AdaptivePaths {
  const outcomes = new StageOutcomes(baseline, candidate);
  for (const record of records) outcomes.add(record);
  const { paths, design } = replayItems(
    items.length,
    (i, model, sample) => outcomes.outcome((items[i] as ChurnItem).id, model, sample),
    designOf(settings, items.length),
  );
  let used = 0;
  items.forEach((item, i) => {
    used += outcomes.recorded(item.id, (paths[i] as ItemPath).samples);
  });
  const fixed = items.length * outcomes.models.length * design.samplesMax;
  return {
    design,
    paths,
    planned: Int32Array.from(paths, (p) => p.samples),
    summary: {
      mode: 'adaptive',
      samplesFirst: design.firstStage,
      samplesStep: design.stage,
      samplesMax: design.samplesMax,
      settledShare: design.settledShare,
      futility: design.futility
        ? {
            p: design.futility.pAbove,
            from: design.futility.fromSamples,
            tighten: design.futility.tighten ?? 1,
          }
        : null,
      decided: design.decided ? { pAtMost: design.decided.pAtMost } : null,
      requests: {
        used,
        fixed,
        saved: fixed - used,
        savedShare: fixed === 0 ? null : (fixed - used) / fixed,
      },
      stopped: stoppedRows(paths),
    },
  };
}

/** Items per stage end (samples per model) and the reason each stopped there. */
function stoppedRows(paths: readonly ItemPath[]): AdaptiveSamplingSummary['stopped'] {
  const rows = new Map<number, AdaptiveSamplingSummary['stopped'][number]>();
  for (const path of paths) {
    const row = rows.get(path.samples) ?? {
      samples: path.samples,
      items: 0,
      settled: 0,
      decided: 0,
      futility: 0,
      samplesMax: 0,
      open: 0,
    };
    row.items++;
    if (path.stop === 'samples-max') row.samplesMax++;
    else row[path.stop]++;
    rows.set(path.samples, row);
  }
  return [...rows.values()].sort((a, b) => a.samples - b.samples);
}

/** Clears every sample beyond an item's path: a fixed run's extra samples never enter the tests. */
export function keepPathSamples(masks: SampleMasks, planned: Int32Array): void {
  for (let i = 0; i < masks.items; i++) {
    const end = planned[i] as number;
    for (let w = 0; w < masks.words; w++) {
      const first = w * 32;
      const keep =
        end >= first + 32 ? 0xffffffff : end <= first ? 0 : (2 ** (end - first) - 1) >>> 0;
      const at = i * masks.words + w;
      masks.valid[at] = ((masks.valid[at] as number) & keep) >>> 0;
      masks.correct[at] = ((masks.correct[at] as number) & keep) >>> 0;
    }
  }
}

/** Valid samples and successes of item `i` with index in [from, to). */
function countRange(masks: SampleMasks, i: number, from: number, to: number): [number, number] {
  let correct = 0;
  let valid = 0;
  for (let w = Math.floor(from / 32); w * 32 < to; w++) {
    const lo = Math.max(from - w * 32, 0);
    const hi = Math.min(to - w * 32, 32);
    const range = (hi >= 32 ? 0xffffffff : (2 ** hi - 1) >>> 0) & ~((2 ** lo - 1) >>> 0);
    const at = i * masks.words + w;
    correct += popcount(((masks.correct[at] as number) & range) >>> 0);
    valid += popcount(((masks.valid[at] as number) & range) >>> 0);
  }
  return [correct, valid];
}

/** The stages of item `i`'s path, counted from the masks (observed, or redrawn under the null). */
export function stagesFromMasks(
  i: number,
  path: ItemPath,
  design: AdaptiveDesign,
  baseline: SampleMasks,
  candidate: SampleMasks,
): StageCounts[] {
  const stages: StageCounts[] = [];
  let from = 0;
  for (let j = 0; j < path.stages.length; j++) {
    const to = Math.min(j === 0 ? design.firstStage : from + design.stage, design.samplesMax);
    const [baselineCorrect, baselineSamples] = countRange(baseline, i, from, to);
    const [candidateCorrect, candidateSamples] = countRange(candidate, i, from, to);
    stages.push({ baselineCorrect, baselineSamples, candidateCorrect, candidateSamples });
    from = to;
  }
  return stages;
}

/**
 * The item test of runMethods for adaptive paths: the exact test across the item's stages; an
 * item its path stopped for futility reports p = 1 (docs/adaptive-sampling.md).
 */
export function stagedItems(adaptive: AdaptivePaths): StagedItems {
  return {
    planned: adaptive.planned,
    itemTest: (i, baseline, candidate) => {
      const path = adaptive.paths[i] as ItemPath;
      if (path.stop === 'futility') return 1;
      const stages = stagesFromMasks(i, path, adaptive.design, baseline, candidate);
      return adaptiveItemTest(stages, adaptive.design).pValue;
    },
  };
}

/** The strata item `i` brings to its domain's test: one per stage of its path. */
export function domainStrata(
  adaptive: AdaptivePaths,
  i: number,
  baseline: SampleMasks,
  candidate: SampleMasks,
): Stratum[] {
  const path = adaptive.paths[i] as ItemPath;
  const stages = stagesFromMasks(i, path, adaptive.design, baseline, candidate);
  return adaptiveItemTest(stages, adaptive.design).domainStrata;
}

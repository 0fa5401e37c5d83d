/**
 * Every stochastic sample of every item, as adaptive sampling sees it: per model and sample
 * index, answered right, wrong, recorded without a valid answer, or not taken. The runner's
 * growing plan and the analysis both read an item's path from here, so they agree on it.
 */
import type { SampleRecord } from '../../sampleLog/index.js';
import { type AdaptiveDesign, type ItemPath, replayItem, type SampleOutcome } from './adaptive.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

/** One sample's outcome as the analysis counts it (tally.ts): answered right or wrong, or not valid. */
export function sampleOutcome(record: ChurnCallRecord): SampleOutcome {
  return record.status === 'ok' && record.correct !== null ? record.correct : null;
}

export class StageOutcomes {
  private readonly byItem = new Map<string, Map<number, SampleOutcome>[]>();
  /** Baseline, then the candidate; one model (nightly, or the same tag twice) stands for both. */
  private readonly models: readonly string[];

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

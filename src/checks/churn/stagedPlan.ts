/**
 * The plan of adaptive sampling as it grows: the first stage is planned up front (plan.ts);
 * each answer the run records is shown here, and once an item's stage is complete for both
 * models and the stopping rule continues, the next stage's samples of both models join the
 * plan. The runner runs the ones of the model whose series is on at once (so that model runs
 * one stage ahead while the other catches up) and the others in that model's next series.
 */
import type { GateConfig } from '../../config/schema.js';
import type { PlanGrowth, WorkUnit } from '../../runner/types.js';
import type { ChurnCallRecord, SampleRecord } from '../../sampleLog/index.js';
import { type AdaptiveDesign, designOf, replayItem, type SampleOutcome } from './adaptive.js';
import type { ChurnItem } from './items.js';
import { churnSlot, churnUnit } from './plan.js';

/** One sample's outcome as the analysis counts it (tally.ts): answered right or wrong, or not valid. */
export function sampleOutcome(record: ChurnCallRecord): SampleOutcome {
  return record.status === 'ok' && record.correct !== null ? record.correct : null;
}

interface ItemState {
  item: ChurnItem;
  outcomes: [Map<number, SampleOutcome>, Map<number, SampleOutcome>];
  /** Samples per model planned so far. */
  planned: number;
}

export class ChurnStages implements PlanGrowth {
  private readonly design: AdaptiveDesign;
  private readonly items = new Map<string, ItemState>();
  /** The models in the order of the design: baseline, candidate (the baseline alone in a single-model run). */
  private readonly models: readonly string[];

  constructor(
    items: readonly ChurnItem[],
    private readonly config: GateConfig,
    baseline: string,
    candidate: string | null,
  ) {
    this.design = designOf(config.churn);
    // The same tag twice (A/A) is one series of samples: it stops on its own share.
    this.models =
      candidate === null || candidate === baseline ? [baseline] : [baseline, candidate];
    for (const item of items) {
      this.items.set(item.id, {
        item,
        outcomes: [new Map(), new Map()],
        planned: this.design.firstStage,
      });
    }
  }

  observe(records: readonly SampleRecord[]): WorkUnit[] {
    const touched = new Set<ItemState>();
    for (const record of records) {
      if (record.kind !== 'call' || record.check !== 'churn' || record.mode !== 'stochastic') continue;
      const state = this.items.get(record.item);
      const model = this.models.indexOf(record.model);
      if (!state || model < 0) continue;
      state.outcomes[model as 0 | 1].set(record.sample, sampleOutcome(record));
      touched.add(state);
    }
    const units: WorkUnit[] = [];
    for (const state of touched) units.push(...this.nextStage(state));
    return units;
  }

  /** The samples the item's path now wants beyond those already planned, for every model. */
  private nextStage(state: ItemState): WorkUnit[] {
    // A single-model run stops on the baseline's own share.
    const second = this.models.length === 1 ? 0 : 1;
    const path = replayItem(
      (model, k) => state.outcomes[model === 0 ? 0 : second].get(k),
      this.design,
    );
    if (path.wanted <= state.planned) return [];
    const units: WorkUnit[] = [];
    for (const model of this.models) {
      for (let k = state.planned; k < path.wanted; k++) {
        units.push(churnUnit(churnSlot(state.item, this.config, model, 'stochastic', k), this.config));
      }
    }
    state.planned = path.wanted;
    return units;
  }
}

/**
 * The plan of adaptive sampling as it grows: the first stage is planned up front (plan.ts);
 * each answer the run records is shown here, and once an item's stage is complete for both
 * models and the stopping rule continues, the next stage's samples of both models join the
 * plan. The runner runs the ones of the model whose series is on at once (so that model runs
 * one stage ahead while the other catches up) and the others in that model's next series.
 */
import type { PlanGrowth, WorkUnit } from '../workUnit.js';
import type { SampleRecord } from '../../sampleLog/index.js';
import { type AdaptiveDesign, designOf } from './adaptive.js';
import type { ChurnItem } from './items.js';
import { churnSlot, churnUnit } from './plan.js';
import { type ChurnConfig, samplingOf } from './settings.js';
import { StageOutcomes } from './stageOutcomes.js';

interface ItemState {
  item: ChurnItem;
  /** Samples per model planned so far. */
  planned: number;
}

export class ChurnStages implements PlanGrowth {
  private readonly design: AdaptiveDesign;
  private readonly outcomes: StageOutcomes;
  private readonly items = new Map<string, ItemState>();
  private readonly models: readonly string[];

  constructor(
    items: readonly ChurnItem[],
    private readonly config: ChurnConfig,
    baseline: string,
    candidate: string | null,
  ) {
    this.design = designOf(config.churn, items.length);
    this.outcomes = new StageOutcomes(baseline, candidate);
    this.models = modelOrder(baseline, candidate);
    for (const item of items) {
      this.items.set(item.id, { item, planned: this.design.firstStage });
    }
  }

  observe(records: readonly SampleRecord[]): WorkUnit[] {
    const touched = new Set<ItemState>();
    for (const record of records) {
      const id = this.outcomes.add(record);
      const state = id === null ? undefined : this.items.get(id);
      if (state) touched.add(state);
    }
    const units: WorkUnit[] = [];
    for (const state of touched) units.push(...this.nextStage(state));
    return units;
  }

  mostCalls(units: readonly WorkUnit[]): number {
    const mine = new Set<ItemState>();
    for (const unit of units) {
      if (unit.check !== 'churn') continue;
      // A churn unit's key is its item's id, "#", and the sample (churnUnitKey).
      const state = this.items.get(unit.key.slice(0, unit.key.lastIndexOf('#')));
      if (state) mine.add(state);
    }
    let calls = 0;
    for (const state of mine) calls += Math.max(0, this.design.samplesMax - state.planned);
    return calls * this.models.length;
  }

  /** The samples the item's path now wants beyond those already planned, for every model. */
  private nextStage(state: ItemState): WorkUnit[] {
    const path = this.outcomes.path(state.item.id, this.design);
    if (path.wanted <= state.planned) return [];
    const units: WorkUnit[] = [];
    for (const model of this.models) {
      for (let k = state.planned; k < path.wanted; k++) {
        const slot = churnSlot(state.item, this.config, model, 'stochastic', k);
        units.push(churnUnit(slot, this.config));
      }
    }
    state.planned = path.wanted;
    return units;
  }
}

/** The models sampled: baseline, then the candidate unless absent or the same tag (A/A). */
function modelOrder(baseline: string, candidate: string | null): string[] {
  return candidate === null || candidate === baseline ? [baseline] : [baseline, candidate];
}

/**
 * With adaptive churn sampling the plan holds the first stage only: later stages are planned from
 * the answers. Say so, with the most a run can ask (every item to `samples-max`).
 */
export function adaptiveNotes(config: ChurnConfig, units: readonly WorkUnit[]): string[] {
  const churn = config.churn;
  if (samplingOf(churn) !== 'adaptive') return [];
  const perItem = churn.samplesFirst + (churn.greedy ? 1 : 0);
  const firstStage = units.filter((u) => u.check === 'churn' && u.model === config.models.baseline);
  const items = Math.round(firstStage.length / perItem);
  const most = items * (churn.samplesMax + (churn.greedy ? 1 : 0));
  return [
    `churn: adaptive sampling: the counts above are the first stage (${churn.samplesFirst} samples per item); later stages follow the answers, up to ${most} calls per model (${items} items × ${churn.samplesMax} samples${churn.greedy ? ' + greedy' : ''})`,
  ];
}

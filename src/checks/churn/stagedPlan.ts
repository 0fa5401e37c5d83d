/**
 * The plan of adaptive sampling as it grows: the first stage is planned up front (plan.ts);
 * each answer the run records is shown here, and once an item's stage is complete for both
 * models and the stopping rule continues, the next stage's samples of both models join the
 * plan. The runner runs the ones of the model whose series is on at once (so that model runs
 * one stage ahead while the other catches up) and the others in that model's next series.
 */
import type { PlanGrowth, WorkUnit } from '../workUnit.js';
import type { SampleRecord } from '../../sampleLog/index.js';
import {
  type AdaptiveDesign,
  countingDecided,
  designOf,
  type ItemPath,
  StageOutcomes,
} from './adaptive.js';
import type { ChurnItem } from './items.js';
import { stageUnit } from './plan.js';
import { type ChurnConfig, samplingOf } from './settings.js';

interface ItemState {
  item: ChurnItem;
  /** Samples per model planned so far. */
  planned: number;
}

export class ChurnStages implements PlanGrowth {
  private readonly base: AdaptiveDesign;
  /** The design with the efficacy bounds the items decided so far allow (adaptive.ts). */
  private design: AdaptiveDesign;
  /** Look (0-based) of each item stopped as decided so far. */
  private readonly decidedAt = new Map<string, number>();
  private readonly outcomes: StageOutcomes;
  private readonly items = new Map<string, ItemState>();

  constructor(
    items: readonly ChurnItem[],
    private readonly config: ChurnConfig,
    baseline: string,
    candidate: string | null,
  ) {
    this.base = designOf(config.churn, items.length);
    this.design = countingDecided(this.base, []);
    this.outcomes = new StageOutcomes(baseline, candidate);
    for (const item of items) {
      this.items.set(item.id, { item, planned: this.base.firstStage });
    }
  }

  observe(records: readonly SampleRecord[]): WorkUnit[] {
    const touched = new Set<ItemState>();
    for (const record of records) {
      const id = this.outcomes.add(record);
      const state = id === null ? undefined : this.items.get(id);
      if (state) touched.add(state);
    }
    // The paths again until the items they decide no longer raise the efficacy bounds: records
    // read back all at once (a resumed run, the analysis's plan) then plan what the analysis
    // replays, whatever order the items come in.
    let paths: [ItemState, ItemPath][];
    let changed = true;
    do {
      changed = false;
      paths = [...touched].map((state) => [state, this.outcomes.path(state.item.id, this.design)]);
      for (const [state, path] of paths) changed = this.count(state, path) || changed;
    } while (changed);
    const units: WorkUnit[] = [];
    for (const [state, path] of paths) units.push(...this.nextStage(state, path));
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
    return calls * this.outcomes.models.length;
  }

  /**
   * Counts the item as decided at the look its path stops it, or no longer (a sample answered
   * again after a failed request can undo a decision); true when that changed the bounds.
   */
  private count(state: ItemState, path: ItemPath): boolean {
    const look = path.stop === 'decided' ? path.stages.length - 1 : undefined;
    if (this.decidedAt.get(state.item.id) === look) return false;
    if (look === undefined) this.decidedAt.delete(state.item.id);
    else this.decidedAt.set(state.item.id, look);
    this.design = countingDecided(this.base, this.decidedAt.values());
    return true;
  }

  /** The samples the item's path now wants beyond those already planned, for every model. */
  private nextStage(state: ItemState, path: ItemPath): WorkUnit[] {
    if (path.wanted <= state.planned) return [];
    const units: WorkUnit[] = [];
    for (const model of this.outcomes.models) {
      for (let k = state.planned; k < path.wanted; k++) {
        const unit = stageUnit(state.item, this.config, model, k);
        units.push(this.unlessStopped(unit, state.item.id, k));
      }
    }
    state.planned = path.wanted;
    return units;
  }

  /**
   * The unit, asking nothing when its turn comes if the item's path no longer reaches the
   * sample: items decided since it was planned can raise the efficacy bound enough to stop the
   * item at the look before (a model's stage waits for that model's next series).
   */
  private unlessStopped(unit: WorkUnit, item: string, sample: number): WorkUnit {
    const guarded = Object.create(unit) as WorkUnit;
    guarded.execute = async (ctx) => {
      if (this.outcomes.path(item, this.design).wanted <= sample) return;
      await unit.execute(ctx);
    };
    return guarded;
  }
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

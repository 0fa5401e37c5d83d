/**
 * Resume planning: which units of the plan the log already answers, and what each unit left
 * to run gets as `prior`. A unit's records are those of the log that count
 * (src/sampleLog/counted.ts) under the model's current digest whose key is the unit key or
 * extends it with "/…", narrowed by the unit's `current` to those its settings would produce;
 * records with status error or timeout are not final, so their calls are made again.
 */
import { countedRecords, isFinal, type SampleRecord } from '../sampleLog/index.js';
import { indexPrior, priorKey } from './resume.js';
import type { WorkUnit } from './types.js';

export interface PendingUnit {
  unit: WorkUnit;
  /** The unit's final records already in the log. */
  prior: SampleRecord[];
}

/** What the log says of one unit. */
export interface UnitResume extends PendingUnit {
  /** Every current record of the unit in the log, final or not (the run's result keeps them). */
  logged: SampleRecord[];
  complete: boolean;
}

export class ResumePlan {
  private readonly index: Map<string, SampleRecord[]>;

  /** `digestOf`: each model's digest now; records of other weights are never resumed. */
  constructor(
    records: readonly SampleRecord[],
    private readonly digestOf: ReadonlyMap<string, string | null>,
  ) {
    this.index = indexPrior(countedRecords(records, digestOf).records);
  }

  digest(model: string): string | null {
    return this.digestOf.get(model) ?? null;
  }

  resume(unit: WorkUnit): UnitResume {
    const key = priorKey(unit.check, unit.model, this.digest(unit.model), unit.key);
    const found = this.index.get(key) ?? [];
    // Records of a run with other settings are not this unit's answers: asked again.
    const logged = unit.current ? unit.current(found) : found;
    const prior = logged.filter(isFinal);
    return { unit, prior, logged, complete: unit.isComplete(prior) };
  }
}

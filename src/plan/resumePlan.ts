/**
 * Resume planning: which units of the plan the log already answers, and what each unit left
 * to run gets as `prior`. A unit's records are those of the log that count
 * (src/sampleLog/counted.ts) under the model's current digest whose key is the unit key or
 * extends it with "/…", narrowed by the unit's `current` to those its settings would produce;
 * records with status error or timeout are not final, so their calls are made again.
 */

import type { PlanGrowth, WorkUnit } from '../checks/workUnit.js';
import {
  countedRecords,
  isFinal,
  type RecordLookup,
  ResumeIndex,
  type SampleRecord,
} from '../sampleLog/index.js';

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
  /**
   * `index`: the log's records that count, per unit; `digestOf`: each model's digest now
   * (records of other weights are never resumed).
   */
  constructor(
    private readonly index: RecordLookup,
    private readonly digestOf: ReadonlyMap<string, string | null>,
  ) {}

  /** The plan over records held in memory. */
  static ofRecords(
    records: readonly SampleRecord[],
    digestOf: ReadonlyMap<string, string | null>,
  ): ResumePlan {
    return new ResumePlan(new ResumeIndex(countedRecords(records, digestOf).records), digestOf);
  }

  digest(model: string): string | null {
    return this.digestOf.get(model) ?? null;
  }

  resume(unit: WorkUnit): UnitResume {
    const found = this.index.get(unit.check, unit.model, this.digest(unit.model), unit.key);
    // Records of a run with other settings are not this unit's answers: asked again.
    const logged = unit.current ? unit.current(found) : found;
    const prior = logged.filter(isFinal);
    return { unit, prior, logged, complete: unit.isComplete(prior) };
  }
}

/**
 * The plan as a run over these records grew it: each unit with records in the log shows them
 * to `growth`, and the units that adds are looked at in turn. The analysis counts coverage and
 * stale records against this plan. `records`: those that count, one digest per model.
 */
export function grownPlan(
  units: readonly WorkUnit[],
  growth: PlanGrowth | undefined,
  records: readonly SampleRecord[],
): WorkUnit[] {
  if (!growth) return [...units];
  const digestOf = new Map<string, string | null>();
  for (const record of records) {
    if (!digestOf.has(record.model)) digestOf.set(record.model, record.digest);
  }
  const resume = ResumePlan.ofRecords(records, digestOf);
  const plan: WorkUnit[] = [];
  const seen = new Set<string>();
  for (let next: readonly WorkUnit[] = units; next.length > 0; ) {
    const answered: SampleRecord[] = [];
    for (const unit of next) {
      const id = JSON.stringify([unit.check, unit.model, unit.key]);
      if (seen.has(id)) continue;
      seen.add(id);
      plan.push(unit);
      answered.push(...resume.resume(unit).logged);
    }
    next = answered.length > 0 ? growth.observe(answered) : [];
  }
  return plan;
}

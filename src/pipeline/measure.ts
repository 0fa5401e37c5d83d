/**
 * The records that count, taken one at a time in log order (countedLogs.ts), folded into what
 * the report reads: each check's fold, completeness per planned unit, stale records, the
 * request tally and the failed requests. Memory grows with the plan and the checks' own
 * states, not with the records.
 *
 * A record belongs to the planned unit whose key is its key or a prefix of it ending before
 * "/" (unitRecords.ts). A unit of one call (a churn sample, an assistant's answer) is judged
 * record by record as it arrives: whether its settings are today's (`current`), whether it
 * completes the unit. The records of a check with longer units (a maze game, whose decisions
 * are judged together) are held until the log ends, then judged per unit as before.
 */
import type { CheckContext, CheckFold } from '../checks/types.js';
import type { WorkUnit } from '../checks/workUnit.js';
import { splitStale, UnitLookup } from '../plan/unitRecords.js';
import type { SampleRecord } from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';
import type { LoadedCheck } from './checks.js';
import { RecordsByUnitState, type UnitState } from './coverage.js';
import { FailedRequests } from './failedRequests.js';
import { RequestCounts } from './tally.js';

export interface MeasureInput {
  checks: readonly LoadedCheck[];
  ctx: CheckContext;
  plan: readonly WorkUnit[];
  /** Baseline first, then candidate. */
  models: readonly string[];
  /** Keep the stale records themselves (to say how they differ), not only their count. */
  keepStale: boolean;
}

/** What the stream of records came to. */
export interface Measurement {
  /** Each check's section, from its fold. */
  sections: Map<string, unknown>;
  /** What each check's page part collected of its records (`CheckPageGroup.collect`). */
  collected: Map<string, unknown>;
  failed: FailedRequests;
  requests: RequestCounts;
  /** Of each planned unit, by its position in the plan. */
  stateOf(at: number): UnitState;
  /** Records written under other settings, per check, in the order each check's first came. */
  staleByCheck: Map<string, number>;
  /** The stale records, when kept. */
  stale: SampleRecord[];
  /** Planned units the logs hold only under other settings. */
  staleUnits: WorkUnit[];
  /** How many records of a check and model a planned unit claims, and how many none claims. */
  planned: Counts;
  unplanned: Counts;
  /** The models with a record of a check: planned ones first, then stale, then unplanned. */
  present(check: string): string[];
  /** How many records count (stale ones left out). */
  records: number;
  /** The digest of a model's records (one per model: countedLogs.ts), null when none has one. */
  digestOf(model: string): string | null;
}

/** Per check and model. */
export class Counts {
  private readonly counts = new Map<string, number>();
  add(check: string, model: string): void {
    const id = `${check}\n${model}`;
    this.counts.set(id, (this.counts.get(id) ?? 0) + 1);
  }
  of(check: string, model: string): number {
    return this.counts.get(`${check}\n${model}`) ?? 0;
  }
}

const HAS_RECORD = 1;
const HAS_CURRENT = 2;
const FAILED = 4;
const ANSWERED_CALL = 8;
const COMPLETE = 16;

/** Which of the planned, stale and unplanned lists a record went to (`present`). */
const PLANNED = 0;
const STALE = 1;
const UNPLANNED = 2;

/** Folds the records given to `add`, in log order, into what `finish` returns. */
export class Measuring {
  private readonly lookup: UnitLookup;
  /** Checks whose units are judged together, once the log is read: their records wait. */
  private readonly held = new Set<string>();
  private readonly heldRecords: SampleRecord[] = [];
  /** Where each held record stood in the log: a fold that times the run reads it as time. */
  private readonly placeInLog = new Map<SampleRecord, number>();
  /** Records met so far, held or not: the next record's position in the log. */
  private arrived = 0;
  /** Per planned unit (of a check not held): what its records said, as bits. */
  private readonly flags: Uint8Array;
  private readonly folds: Map<string, Started>;
  private readonly pages: Map<string, Started>;
  /** Checks that read every check's records (speed times every call), not only their own. */
  private readonly everyCheck: string[];
  private readonly failed = new FailedRequests();
  private readonly requests = new RequestCounts();
  private readonly staleByCheck = new Map<string, number>();
  private readonly stale: SampleRecord[] = [];
  /** Units whose first record was stale, in that order: stale units unless one is current. */
  private readonly staleFirst: number[] = [];
  private readonly planned = new Counts();
  private readonly unplanned = new Counts();
  private readonly present = new Map<string, [Set<string>, Set<string>, Set<string>]>();
  private readonly digests = new Map<string, string | null>();
  private records = 0;

  constructor(private readonly input: MeasureInput) {
    const { plan, checks, ctx } = input;
    this.lookup = new UnitLookup(plan);
    for (const unit of plan) {
      if (unit.expectedCalls !== 1 || unit.replaced) this.held.add(unit.check);
    }
    this.flags = new Uint8Array(plan.length);
    this.folds = new Map(
      checks.map(({ check, definitions }) => [check.name, started(check.fold, definitions, ctx)]),
    );
    this.everyCheck = checks
      .filter(({ check }) => check.log?.everyCheck)
      .map(({ check }) => check.name);
    this.pages = new Map(
      checks.flatMap(({ check, definitions }) =>
        check.page ? [[check.name, started(check.page.collect, definitions, ctx)] as const] : [],
      ),
    );
  }

  add(record: SampleRecord): void {
    const position = this.arrived++;
    if (this.held.has(record.check)) {
      this.heldRecords.push(record);
      this.placeInLog.set(record, position);
      return;
    }
    const at = this.lookup.positionOf(record);
    if (at < 0) {
      this.counts(record, UNPLANNED, position);
      return;
    }
    const unit = this.input.plan[at] as WorkUnit;
    const before = this.flags[at] as number;
    if (unit.current && unit.current([record]).length === 0) {
      if ((before & HAS_RECORD) === 0) this.staleFirst.push(at);
      this.flags[at] = before | HAS_RECORD;
      this.isStale(record);
      return;
    }
    let now = before | HAS_RECORD | HAS_CURRENT;
    if (isCall(record)) {
      now |= record.status === 'error' || record.status === 'timeout' ? FAILED : ANSWERED_CALL;
    }
    const usable = !isCall(record) || record.status !== 'error';
    if (usable && unit.isComplete([record])) now |= COMPLETE;
    this.flags[at] = now;
    this.counts(record, PLANNED, position);
  }

  private counts(
    record: SampleRecord,
    list: typeof PLANNED | typeof UNPLANNED,
    position: number,
  ): void {
    (list === PLANNED ? this.planned : this.unplanned).add(record.check, record.model);
    this.seen(record, list);
    this.records++;
    if (record.digest !== null) this.digests.set(record.model, record.digest);
    for (const folds of [this.folds, this.pages]) {
      const own = folds.get(record.check);
      if (own) own.fold.add(own.state, record, position);
    }
    for (const name of this.everyCheck) {
      if (name === record.check) continue;
      for (const folds of [this.folds, this.pages]) {
        const reader = folds.get(name);
        if (reader) reader.fold.add(reader.state, record, position);
      }
    }
    this.failed.add(record);
    this.requests.add(record);
  }

  private isStale(record: SampleRecord): void {
    this.staleByCheck.set(record.check, (this.staleByCheck.get(record.check) ?? 0) + 1);
    if (this.input.keepStale) this.stale.push(record);
    this.seen(record, STALE);
  }

  private seen(record: SampleRecord, list: 0 | 1 | 2): void {
    let sets = this.present.get(record.check);
    if (!sets) {
      sets = [new Set(), new Set(), new Set()];
      this.present.set(record.check, sets);
    }
    sets[list].add(record.model);
  }

  finish(): Measurement {
    const { plan } = this.input;
    // The held checks' records, judged per unit now that each unit's are all known.
    const heldUnits: number[] = [];
    plan.forEach((unit, at) => {
      if (this.held.has(unit.check)) heldUnits.push(at);
    });
    const units = heldUnits.map((at) => plan[at] as WorkUnit);
    const split = splitStale(this.heldRecords, units);
    const unclaimed = new Set(split.unplanned);
    for (const record of split.stale) this.isStale(record);
    for (const record of split.current) {
      const position = this.placeInLog.get(record) as number;
      this.counts(record, unclaimed.has(record) ? UNPLANNED : PLANNED, position);
    }
    const heldStates = new RecordsByUnitState(units, split.current);
    const heldAt = new Map(heldUnits.map((at, i) => [at, i]));
    // The closures below keep what the report reads, not the lookup of units by key.
    const { flags, present, digests } = this;
    return {
      sections: finished(this.folds),
      collected: finished(this.pages),
      failed: this.failed,
      requests: this.requests,
      stateOf: (at) => {
        const i = heldAt.get(at);
        if (i !== undefined) return heldStates.stateOf(i);
        return stateOfFlags(flags[at] as number, plan[at] as WorkUnit);
      },
      staleByCheck: this.staleByCheck,
      stale: this.stale,
      staleUnits: [
        ...this.staleFirst
          .filter((at) => ((flags[at] as number) & HAS_CURRENT) === 0)
          .map((at) => plan[at] as WorkUnit),
        ...split.staleUnits,
      ],
      planned: this.planned,
      unplanned: this.unplanned,
      present: (check) => {
        const sets = present.get(check);
        return sets ? [...new Set([...sets[PLANNED], ...sets[STALE], ...sets[UNPLANNED]])] : [];
      },
      records: this.records,
      digestOf: (model) => digests.get(model) ?? null,
    };
  }
}

interface Started {
  fold: CheckFold<unknown, unknown>;
  state: unknown;
}

function finished(folds: ReadonlyMap<string, Started>): Map<string, unknown> {
  const out = new Map<string, unknown>();
  for (const [name, { fold, state }] of folds) out.set(name, fold.finish(state));
  return out;
}

/** A fold with its state started. */
function started(
  fold: CheckFold<unknown, unknown>,
  definitions: unknown,
  ctx: CheckContext,
): Started {
  return { fold, state: fold.start(definitions, ctx) };
}

/** A unit of one call from what its records said (coverage.ts's unitState, record by record). */
function stateOfFlags(flags: number, unit: WorkUnit): UnitState {
  if ((flags & HAS_CURRENT) === 0) return 'missing';
  if ((flags & FAILED) !== 0) return 'failed';
  if ((flags & COMPLETE) !== 0) return 'answered';
  return unit.expectedCalls <= 1 && (flags & ANSWERED_CALL) !== 0 ? 'answered' : 'missing';
}

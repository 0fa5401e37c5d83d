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

/** Folds the records `each` gives, in order; `each` is a pass over the logs. */
export async function measure(
  input: MeasureInput,
  each: (visit: (record: SampleRecord) => void) => Promise<void>,
): Promise<Measurement> {
  const { plan, checks, ctx } = input;
  const lookup = new UnitLookup(plan);
  // A check whose every unit is one call is judged record by record; the others are held.
  const held = new Set<string>();
  for (const unit of plan) if (unit.expectedCalls !== 1 || unit.replaced) held.add(unit.check);
  const heldRecords: SampleRecord[] = [];
  const flags = new Uint8Array(plan.length);
  const folds = new Map(
    checks.map(({ check, definitions }) => [
      check.name as string,
      started(check.fold, definitions, ctx),
    ]),
  );
  const pages = new Map(
    checks.flatMap(({ check, definitions }) =>
      check.page
        ? [[check.name as string, started(check.page.collect, definitions, ctx)] as const]
        : [],
    ),
  );
  const failed = new FailedRequests();
  const requests = new RequestCounts();
  const staleByCheck = new Map<string, number>();
  const stale: SampleRecord[] = [];
  const staleCandidates: number[] = [];
  const planned = new Counts();
  const unplanned = new Counts();
  const present = new Map<string, [Set<string>, Set<string>, Set<string>]>();
  const digests = new Map<string, string | null>();
  let records = 0;

  const seen = (record: SampleRecord, list: 0 | 1 | 2): void => {
    let sets = present.get(record.check);
    if (!sets) {
      sets = [new Set(), new Set(), new Set()];
      present.set(record.check, sets);
    }
    sets[list].add(record.model);
  };
  const counts = (record: SampleRecord): void => {
    records++;
    if (record.digest !== null) digests.set(record.model, record.digest);
    const own = folds.get(record.check);
    if (own) own.fold.add(own.state, record);
    const page = pages.get(record.check);
    if (page) page.fold.add(page.state, record);
    failed.add(record);
    requests.add(record);
  };
  const isStale = (record: SampleRecord): void => {
    staleByCheck.set(record.check, (staleByCheck.get(record.check) ?? 0) + 1);
    if (input.keepStale) stale.push(record);
    seen(record, 1);
  };

  await each((record) => {
    if (held.has(record.check)) {
      heldRecords.push(record);
      return;
    }
    const at = lookup.positionOf(record);
    if (at < 0) {
      unplanned.add(record.check, record.model);
      seen(record, 2);
      counts(record);
      return;
    }
    const unit = plan[at] as WorkUnit;
    const before = flags[at] as number;
    if (unit.current && unit.current([record]).length === 0) {
      if ((before & HAS_RECORD) === 0) staleCandidates.push(at);
      flags[at] = before | HAS_RECORD;
      isStale(record);
      return;
    }
    let now = before | HAS_RECORD | HAS_CURRENT;
    if (record.kind === 'call') {
      if (record.status === 'error' || record.status === 'timeout') now |= FAILED;
      else now |= ANSWERED_CALL;
    }
    const usable = record.kind !== 'call' || record.status !== 'error';
    if (usable && unit.isComplete([record])) now |= COMPLETE;
    flags[at] = now;
    planned.add(record.check, record.model);
    seen(record, 0);
    counts(record);
  });

  // The held checks' records, judged per unit now that each unit's are all known.
  const heldUnits: number[] = [];
  plan.forEach((unit, at) => {
    if (held.has(unit.check)) heldUnits.push(at);
  });
  const split = splitStale(
    heldRecords,
    heldUnits.map((at) => plan[at] as WorkUnit),
  );
  const unclaimed = new Set(split.unplanned);
  for (const record of split.stale) isStale(record);
  for (const record of split.current) {
    if (unclaimed.has(record)) {
      unplanned.add(record.check, record.model);
      seen(record, 2);
    } else {
      planned.add(record.check, record.model);
      seen(record, 0);
    }
    counts(record);
  }
  const heldStates = new RecordsByUnitState(
    heldUnits.map((at) => plan[at] as WorkUnit),
    split.current,
  );
  const heldAt = new Map(heldUnits.map((at, i) => [at, i]));

  const sections = new Map<string, unknown>();
  for (const [name, { fold, state }] of folds) sections.set(name, fold.finish(state));
  const collected = new Map<string, unknown>();
  for (const [name, { fold, state }] of pages) collected.set(name, fold.finish(state));
  const staleUnits = [
    ...staleCandidates
      .filter((at) => ((flags[at] as number) & HAS_CURRENT) === 0)
      .map((at) => plan[at] as WorkUnit),
    ...split.staleUnits,
  ];
  return {
    sections,
    collected,
    failed,
    requests,
    stateOf: (at) => {
      const i = heldAt.get(at);
      if (i !== undefined) return heldStates.stateOf(i);
      return stateOfFlags(flags[at] as number, plan[at] as WorkUnit);
    },
    staleByCheck,
    stale,
    staleUnits,
    planned,
    unplanned,
    present: (check) => {
      const sets = present.get(check);
      return sets ? [...new Set([...sets[0], ...sets[1], ...sets[2]])] : [];
    },
    records,
    digestOf: (model) => digests.get(model) ?? null,
  };
}

/** A fold with its state started. */
function started<Definitions>(
  fold: CheckFold<Definitions, unknown>,
  definitions: Definitions,
  ctx: CheckContext,
): { fold: CheckFold<Definitions, unknown>; state: unknown } {
  return { fold, state: fold.start(definitions, ctx) };
}

/** A unit of one call from what its records said (coverage.ts's unitState, record by record). */
function stateOfFlags(flags: number, unit: WorkUnit): UnitState {
  if ((flags & HAS_CURRENT) === 0) return 'missing';
  if ((flags & FAILED) !== 0) return 'failed';
  if ((flags & COMPLETE) !== 0) return 'answered';
  return unit.expectedCalls <= 1 && (flags & ANSWERED_CALL) !== 0 ? 'answered' : 'missing';
}

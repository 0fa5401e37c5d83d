/**
 * Completeness: the plan is known, so what the logs hold can be counted against it. A report
 * over part of the plan — an interrupted run, a log cut short, a shard left out — must not read
 * as a pass, so every gap becomes an `inconclusive` finding with a sentence naming it.
 *
 * Per check and model, each planned unit (a churn sample, a maze game, a personas answer) is:
 * - answered: its records are there and the model answered (ok or invalid);
 * - failed: a request of it failed (error or timeout); the checks' own share rules judge those;
 * - missing: no record, or a game cut before its end.
 * Pure: units and their states in, counts and sentences out.
 */
import { type CheckList, checkNamed } from '../checks/list.js';
import type { GateFinding } from '../checks/types.js';
import type { WorkUnit } from '../checks/workUnit.js';
import type { CheckName } from '../config/schema.js';
import { RecordsByUnit } from '../plan/unitRecords.js';
import type { Coverage, CoverageRow } from '../report/types.js';
import type { RunInfoRecord, SampleRecord } from '../sampleLog/index.js';
import { isCall } from '../sampleLog/schema.js';

export interface CoverageInput {
  /** The checks of the run (each names its unit of work). */
  checks: CheckList;
  units: readonly WorkUnit[];
  /** What the records the report is computed from say of the unit at a position of `units`. */
  stateOf(at: number): UnitState;
  /** Baseline first, then candidate. */
  models: readonly string[];
  /** The run was stopped by a signal before it finished. */
  interrupted: boolean;
  /** Run records of the logs: shard sets with a member missing are named. */
  runs: readonly RunInfoRecord[];
  /** "i/n" when the units are one shard's slice: the other shards are not missing. */
  shard: string | null;
  /** The command starts from an empty log each time (the demo): running it again starts over. */
  startsOver?: boolean;
}

export type UnitState = 'answered' | 'failed' | 'missing';

function unitState(unit: WorkUnit, own: readonly SampleRecord[]): UnitState {
  if (own.length === 0) return 'missing';
  const failed = own.some((r) => isCall(r) && (r.status === 'error' || r.status === 'timeout'));
  if (failed) return 'failed';
  // The runner's own rule (errors left out) decides whether the unit is done. A single-call
  // unit is answered by its call even when an extra it keeps (an embedding) is still to come.
  const usable = own.filter((r) => !isCall(r) || r.status !== 'error');
  if (unit.isComplete(usable)) return 'answered';
  const answeredCall = usable.some(
    (r) => isCall(r) && (r.status === 'ok' || r.status === 'invalid'),
  );
  return unit.expectedCalls <= 1 && answeredCall ? 'answered' : 'missing';
}

/** The state of each unit of a list, from the records that count (grouped by unit once). */
export class RecordsByUnitState {
  private readonly grouped: RecordsByUnit;

  constructor(
    private readonly units: readonly WorkUnit[],
    records: readonly SampleRecord[],
  ) {
    this.grouped = new RecordsByUnit(units, records);
  }

  stateOf(at: number): UnitState {
    return unitState(this.units[at] as WorkUnit, this.grouped.of(at));
  }
}

export function measureCoverage(input: CoverageInput): Coverage {
  // Per check, then per model: rows in the order their first unit comes, no key per unit.
  const rows = new Map<string, Map<string, CoverageRow>>();
  const list: CoverageRow[] = [];
  input.units.forEach((unit, at) => {
    const byModel = rows.get(unit.check) ?? new Map<string, CoverageRow>();
    rows.set(unit.check, byModel);
    let row = byModel.get(unit.model);
    if (!row) {
      row = {
        check: unit.check,
        model: unit.model,
        role: unit.model === input.models[0] ? 'baseline' : 'candidate',
        unit: checkNamed(input.checks, unit.check).unit[1],
        planned: 0,
        answered: 0,
        failed: 0,
        missing: 0,
      };
      byModel.set(unit.model, row);
      list.push(row);
    }
    row.planned++;
    row[input.stateOf(at)]++;
  });
  const missingShards = input.shard === null ? missingShardsOf(input.runs) : [];
  // A shard set with a member missing matters through the units it leaves unmeasured: another
  // run may have measured them.
  const complete = !input.interrupted && list.every((r) => r.missing === 0);
  return {
    complete,
    interrupted: input.interrupted,
    missingShards,
    shard: input.shard,
    rows: list,
    missing: complete
      ? null
      : missingSentence(list, input.interrupted, missingShards, input.startsOver ?? false),
  };
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function rowGap(row: CoverageRow): string {
  return `${count(row.missing)} of ${count(row.planned)} ${row.check} ${row.unit} of ${row.model} (${row.role})`;
}

/** "the run was interrupted; shard 2/3 is missing; not measured: 600 of 1,200 churn samples of m (candidate)". */
function missingSentence(
  rows: readonly CoverageRow[],
  interrupted: boolean,
  missingShards: readonly string[],
  startsOver: boolean,
): string {
  const parts: string[] = [];
  if (interrupted) parts.push('the run was interrupted before it finished');
  if (missingShards.length > 0) {
    parts.push(
      `shard ${missingShards.join(', ')} ${missingShards.length === 1 ? 'is' : 'are'} missing from the logs`,
    );
  }
  const gaps = rows.filter((r) => r.missing > 0);
  if (gaps.length > 0) parts.push(`not measured: ${gaps.map(rowGap).join('; ')}`);
  const sentence = parts.join('; ');
  const again = startsOver
    ? 'Run it again to measure the whole plan (this command starts over).'
    : 'Run again to measure the rest (a run resumes from its sample log).';
  return `Incomplete measurement — ${sentence}. ${again}`;
}

/**
 * One `inconclusive` finding per check the gap touches, so the verdict machinery sets that
 * check's fail and warn findings aside: numbers over part of the plan claim nothing.
 */
export function coverageFindings(coverage: Coverage, checks: readonly CheckName[]): GateFinding[] {
  if (coverage.complete) return [];
  const findings: GateFinding[] = [];
  for (const check of checks) {
    const gaps = coverage.rows.filter((r) => r.check === check && r.missing > 0);
    if (gaps.length === 0) continue;
    const missing = gaps.reduce((sum, r) => sum + r.missing, 0);
    const planned = gaps.reduce((sum, r) => sum + r.planned, 0);
    findings.push({
      check,
      rule: 'incomplete',
      severity: 'inconclusive',
      message: `not measured: ${gaps.map(rowGap).join('; ')}${coverage.interrupted ? ' (the run was interrupted)' : ''}; a report over part of the plan concludes nothing`,
      values: { missing, planned },
    });
  }
  const first = checks[0];
  if (findings.length === 0 && first !== undefined) {
    // Every planned unit is logged, yet the run or the shard set did not finish normally.
    findings.push({
      check: first,
      rule: 'incomplete',
      severity: 'inconclusive',
      message: coverage.missing ?? 'the measurement is incomplete',
      values: { missing: 0, planned: coverage.rows.reduce((sum, r) => sum + r.planned, 0) },
    });
  }
  return findings;
}

/** "2/3" for every member of a shard set the logs lack. */
export function missingShardsOf(runs: readonly RunInfoRecord[]): string[] {
  const sets = new Map<number, Set<number>>();
  for (const run of runs) {
    const match = /^(\d+)\/(\d+)$/.exec(run.shard ?? '');
    if (!match) continue;
    const total = Number(match[2]);
    const set = sets.get(total) ?? new Set<number>();
    set.add(Number(match[1]));
    sets.set(total, set);
  }
  const missing: string[] = [];
  for (const [total, present] of [...sets].sort((a, b) => a[0] - b[0])) {
    for (let i = 1; i <= total; i++) if (!present.has(i)) missing.push(`${i}/${total}`);
  }
  return missing;
}

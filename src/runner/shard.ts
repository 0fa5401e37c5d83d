/**
 * `--shard i/n`: which units of the plan this runner executes. The rule only looks at the
 * full plan, so every runner of a matrix computes the same split without talking to the
 * others: all units of both models, longest expected first (ties by check, model and key,
 * so the order the plan lists them in does not matter), each go to the shard with the
 * fewest expected calls so far (the lowest-numbered shard on a tie). Maze games weigh their
 * estimated length, not their turn cap: weighing the cap left the shard without games idle
 * long before the others.
 */
import type { WorkUnit } from '../checks/workUnit.js';
import { isShard, type Shard } from '../config/overrides.js';
import { InputError } from '../errors.js';
import { estimatedCalls } from './cost.js';

/** A unit's weight in the split: at least one call, so empty units still spread. */
function weight(unit: WorkUnit): number {
  return Math.max(1, estimatedCalls(unit));
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Heaviest first, then a total order that does not depend on where the plan lists a unit. */
function assignmentOrder(a: WorkUnit, b: WorkUnit): number {
  return (
    weight(b) - weight(a) ||
    compareText(a.check, b.check) ||
    compareText(a.model, b.model) ||
    compareText(a.key, b.key)
  );
}

/** The shard (0-based) of every unit of the plan, and each shard's expected calls. */
export function shardAssignment<U extends WorkUnit>(
  units: readonly U[],
  count: number,
): { shardOf: Map<U, number>; load: number[] } {
  const load = new Array<number>(count).fill(0);
  const shardOf = new Map<U, number>();
  for (const unit of [...units].sort(assignmentOrder)) {
    let target = 0;
    for (let s = 1; s < count; s++) if ((load[s] ?? 0) < (load[target] ?? 0)) target = s;
    load[target] = (load[target] ?? 0) + weight(unit);
    shardOf.set(unit, target);
  }
  return { shardOf, load };
}

export function selectShard<U extends WorkUnit>(
  units: readonly U[],
  shard: Shard | null | undefined,
): U[] {
  if (!shard || shard.count === 1) return [...units];
  const { index, count } = shard;
  if (!isShard(shard)) {
    throw new InputError(`shard: expected "i/n" with 1 ≤ i ≤ n, got "${index}/${count}"`);
  }
  const { shardOf } = shardAssignment(units, count);
  return units.filter((unit) => shardOf.get(unit) === index - 1);
}

export function shardLabel(shard: Shard | null | undefined): string | null {
  return shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null;
}

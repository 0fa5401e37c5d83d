/**
 * `--shard i/n`: which units of the plan this runner executes. The rule only looks at the
 * full plan, so every runner of a matrix computes the same split without talking to the
 * others: all units of both models, longest expected first (ties by check, model and key,
 * so the order the plan lists them in does not matter), each go to the shard with the
 * fewest expected calls so far (the lowest-numbered shard on a tie). Maze games weigh their
 * estimated length, not their turn cap: weighing the cap left the shard without games idle
 * long before the others. Units of one group (adaptive sampling: every sample of an item, both
 * models) go to one shard together, weighed by their sum.
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

/** Where a unit's group sorts: its group's name, or (alone) its check, model and key. */
function groupName(unit: WorkUnit): string {
  return unit.group !== undefined
    ? `group\u0000${unit.group}`
    : `${unit.check}\u0000${unit.model}\u0000${unit.key}`;
}

/**
 * The units by group (a unit without one is a group of its own), heaviest first, then by name:
 * a total order that does not depend on where the plan lists a unit.
 */
function groupsInOrder<U extends WorkUnit>(units: readonly U[]): { units: U[]; weight: number }[] {
  const groups = new Map<string, { name: string; units: U[]; weight: number }>();
  for (const unit of units) {
    const name = groupName(unit);
    const group = groups.get(name) ?? { name, units: [], weight: 0 };
    group.units.push(unit);
    group.weight += weight(unit);
    groups.set(name, group);
  }
  return [...groups.values()].sort((a, b) => b.weight - a.weight || compareText(a.name, b.name));
}

/** The shard (0-based) of every unit of the plan, and each shard's expected calls. */
export function shardAssignment<U extends WorkUnit>(
  units: readonly U[],
  count: number,
): { shardOf: Map<U, number>; load: number[] } {
  const load = new Array<number>(count).fill(0);
  const shardOf = new Map<U, number>();
  for (const group of groupsInOrder(units)) {
    let target = 0;
    for (let s = 1; s < count; s++) if ((load[s] ?? 0) < (load[target] ?? 0)) target = s;
    load[target] = (load[target] ?? 0) + group.weight;
    for (const unit of group.units) shardOf.set(unit, target);
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

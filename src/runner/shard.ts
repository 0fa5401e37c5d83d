/**
 * `--shard i/n`: which units of the plan this runner executes. The rule only looks at the
 * full plan, so every runner of a matrix computes the same split without talking to the
 * others: for each model separately, units are taken in plan order and each goes to the
 * shard with the fewest expected calls so far (the lowest-numbered shard on a tie). A shard
 * thus gets a balanced share of every model's work, long maze games included.
 */
import { InputError } from '../errors.js';
import type { WorkUnit } from './types.js';

export interface ShardSpec {
  /** 1-based: "2/4" is index 2 of count 4. */
  index: number;
  count: number;
}

export function selectShard<U extends WorkUnit>(
  units: readonly U[],
  shard: ShardSpec | null | undefined,
): U[] {
  if (!shard || shard.count === 1) return [...units];
  const { index, count } = shard;
  if (!Number.isInteger(index) || !Number.isInteger(count) || index < 1 || index > count) {
    throw new InputError(`shard: expected "i/n" with 1 ≤ i ≤ n, got "${index}/${count}"`);
  }
  const byModel = new Map<string, U[]>();
  for (const unit of units) {
    const list = byModel.get(unit.model) ?? [];
    list.push(unit);
    byModel.set(unit.model, list);
  }
  const chosen = new Set<U>();
  for (const modelUnits of byModel.values()) {
    const load = new Array<number>(count).fill(0);
    for (const unit of modelUnits) {
      let target = 0;
      for (let s = 1; s < count; s++) if ((load[s] ?? 0) < (load[target] ?? 0)) target = s;
      load[target] = (load[target] ?? 0) + Math.max(1, unit.expectedCalls);
      if (target === index - 1) chosen.add(unit);
    }
  }
  return units.filter((unit) => chosen.has(unit));
}

export function shardLabel(shard: ShardSpec | null | undefined): string | null {
  return shard && shard.count > 1 ? `${shard.index}/${shard.count}` : null;
}

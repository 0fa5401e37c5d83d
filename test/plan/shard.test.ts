import { CHECKS } from '../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { InputError } from '../../src/errors.js';
import { checkContext } from '../../src/checks/context.js';
import { loadChecks, planChecks } from '../../src/pipeline/checks.js';
import { estimatedCalls } from '../../src/plan/cost.js';
import { selectShard, shardAssignment } from '../../src/plan/shard.js';
import type { WorkUnit } from '../../src/checks/workUnit.js';
import { writeItemsFile } from '../support/itemsFile.js';

function unit(model: string, key: string, expectedCalls: number, estimated?: number): WorkUnit {
  return {
    check: 'dragon',
    model,
    key,
    expectedCalls,
    ...(estimated !== undefined ? { estimatedCalls: estimated } : {}),
    isComplete: () => false,
    execute: async () => {},
  };
}

const keys = (units: readonly WorkUnit[]): string[] => units.map((u) => `${u.model}/${u.key}`);

/** Churn 60 items × (K = 10 + greedy), the 10 default maze games, the personas catalogue. */
async function mixedJob(sampling: 'fixed' | 'adaptive' = 'fixed'): Promise<WorkUnit[]> {
  const { items } = writeItemsFile('model-gate-shard-', 60, 6);
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    cwd: process.cwd(),
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base:1b', source: 'test' },
      { path: ['models', 'candidate'], value: 'cand:1b', source: 'test' },
      { path: ['checks'], value: ['churn', 'dragon', 'personas'], source: 'test' },
      { path: ['churn', 'items'], value: items, source: 'test' },
      { path: ['churn', 'samples'], value: 10, source: 'test' },
      { path: ['churn', 'sampling'], value: sampling, source: 'test' },
    ],
  });
  const ctx = checkContext(loaded);
  return planChecks(await loadChecks(ctx, CHECKS), ctx);
}

describe('selectShard', () => {
  it('assigns longest first over both models, each to the least loaded shard', () => {
    // Weights 1,2,3 (model a) and 4,5 (model b) over 2 shards, heaviest first:
    // 5→s1 (0,0 tie); 4→s2; 3→s2 (4<5); 2→s1 (5<7); 1→s1 (7=7 tie → lowest). Loads 8 / 7.
    const units = [unit('a', 'x1', 1), unit('a', 'x2', 2), unit('a', 'x3', 3)].concat([
      unit('b', 'y4', 4),
      unit('b', 'y5', 5),
    ]);
    expect(keys(selectShard(units, { index: 1, count: 2 }))).toEqual(['a/x1', 'a/x2', 'b/y5']);
    expect(keys(selectShard(units, { index: 2, count: 2 }))).toEqual(['a/x3', 'b/y4']);
    expect(shardAssignment(units, 2).load).toEqual([8, 7]);
  });

  it('weighs a maze game by its estimated length, not its turn cap', () => {
    // Two games capped at 300 but expected to take 20 calls, and 40 single calls: by the
    // cap each game would fill a shard alone; by the estimate each shard gets 40 calls.
    const units = [unit('m', 'g0', 300, 20), unit('m', 'g1', 300, 20)].concat(
      Array.from({ length: 40 }, (_, i) => unit('m', `c${String(i).padStart(2, '0')}`, 1)),
    );
    const { load } = shardAssignment(units, 2);
    expect(load).toEqual([40, 40]);
    expect(selectShard(units, { index: 1, count: 2 })).toHaveLength(21);
  });

  it('splits the mixed job of two models in 4 shards within 1.10 × the mean, each unit once', async () => {
    const units = await mixedJob();
    // 2 models × (60 × 11 churn calls + 10 games + the personas requests).
    expect(units.filter((u) => u.check === 'churn')).toHaveLength(2 * 660);
    expect(units.filter((u) => u.check === 'dragon')).toHaveLength(20);
    const shards = [1, 2, 3, 4].map((index) => selectShard(units, { index, count: 4 }));
    expect(keys(shards.flat()).sort()).toEqual(keys(units).sort());
    const load = shards.map((s) => s.reduce((sum, u) => sum + estimatedCalls(u), 0));
    const mean = load.reduce((a, b) => a + b, 0) / load.length;
    expect(Math.max(...load) / mean).toBeLessThanOrEqual(1.1);
    // Both models' games are spread: no shard is left with single calls only.
    for (const shard of shards) expect(shard.some((u) => u.check === 'dragon')).toBe(true);

    // The order the plan lists the units in does not change the split.
    const reversed = [...units].reverse();
    const shuffled = [...units].sort((a, b) => (a.key.length % 3) - (b.key.length % 3));
    for (const other of [reversed, shuffled]) {
      for (const index of [1, 2, 3, 4]) {
        expect(keys(selectShard(other, { index, count: 4 })).sort()).toEqual(
          keys(shards[index - 1] ?? []).sort(),
        );
      }
    }
  });

  it('keeps the plan order inside a shard and returns everything without a shard', () => {
    const units = Array.from({ length: 6 }, (_, i) => unit('m', `k${i}`, 1));
    // Equal weights: by key k0…k5, alternating between the two shards.
    expect(keys(selectShard(units, { index: 2, count: 2 }))).toEqual(['m/k1', 'm/k3', 'm/k5']);
    expect(keys(selectShard([...units].reverse(), { index: 2, count: 2 }))).toEqual([
      'm/k5',
      'm/k3',
      'm/k1',
    ]);
    expect(selectShard(units, null)).toHaveLength(6);
  });

  it('rejects an impossible shard', () => {
    expect(() => selectShard([], { index: 3, count: 2 })).toThrow(InputError);
  });
});

describe('selectShard with adaptive sampling', () => {
  it('keeps every unit of an item (both models, greedy included) in one shard, balanced', async () => {
    const units = await mixedJob('adaptive');
    for (const count of [2, 3, 4]) {
      const { shardOf, load } = shardAssignment(units, count);
      const shardsOfItem = new Map<string, Set<number>>();
      for (const u of units) {
        if (u.check !== 'churn') continue;
        const item = u.key.split('#')[0] as string;
        const set = shardsOfItem.get(item) ?? new Set();
        set.add(shardOf.get(u) as number);
        shardsOfItem.set(item, set);
      }
      expect(shardsOfItem.size).toBe(60);
      expect([...shardsOfItem.values()].every((s) => s.size === 1)).toBe(true);
      const mean = load.reduce((a, b) => a + b, 0) / count;
      expect(Math.max(...load) / mean).toBeLessThanOrEqual(1.1);
    }
    // Fixed sampling still splits unit by unit.
    const fixed = await mixedJob('fixed');
    expect(fixed.some((u) => u.group !== undefined)).toBe(false);
  });
});

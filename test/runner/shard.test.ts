import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/errors.js';
import { selectShard } from '../../src/runner/shard.js';
import type { WorkUnit } from '../../src/runner/types.js';

function unit(model: string, key: string, expectedCalls: number): WorkUnit {
  return {
    check: 'dragon',
    model,
    key,
    expectedCalls,
    isComplete: () => false,
    execute: async () => {},
  };
}

describe('selectShard', () => {
  it('splits each model by least expected calls so far, ties to the lowest shard', () => {
    // Calls 5,1,1,1,1,1 over 2 shards: 5→s1; 1→s2; 1→s2 (1<5); 1→s2 (2<5); 1→s2 (3<5); 1→s2 (4<5)
    const units = [5, 1, 1, 1, 1, 1].map((c, i) => unit('m', `u${i}`, c));
    expect(selectShard(units, { index: 1, count: 2 }).map((u) => u.key)).toEqual(['u0']);
    expect(selectShard(units, { index: 2, count: 2 }).map((u) => u.key)).toEqual([
      'u1',
      'u2',
      'u3',
      'u4',
      'u5',
    ]);
  });

  it('covers the plan exactly once over all shards, each model balanced', () => {
    const units = ['a', 'b'].flatMap((m) =>
      Array.from({ length: 10 }, (_, i) => unit(m, `k${i}`, 1)),
    );
    const shards = [1, 2, 3].map((index) => selectShard(units, { index, count: 3 }));
    const all = shards.flat().map((u) => `${u.model}/${u.key}`);
    expect(all.sort()).toEqual(units.map((u) => `${u.model}/${u.key}`).sort());
    // 10 one-call units per model over 3 shards: 4, 3, 3 for each model.
    expect(shards.map((s) => s.filter((u) => u.model === 'a').length)).toEqual([4, 3, 3]);
    expect(shards.map((s) => s.filter((u) => u.model === 'b').length)).toEqual([4, 3, 3]);
  });

  it('keeps the plan order inside a shard and returns everything without a shard', () => {
    const units = Array.from({ length: 6 }, (_, i) => unit('m', `k${i}`, 1));
    expect(selectShard(units, { index: 2, count: 2 }).map((u) => u.key)).toEqual([
      'k1',
      'k3',
      'k5',
    ]);
    expect(selectShard(units, null)).toHaveLength(6);
  });

  it('rejects an impossible shard', () => {
    expect(() => selectShard([], { index: 3, count: 2 })).toThrow(InputError);
  });
});

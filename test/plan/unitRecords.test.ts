import { describe, expect, it } from 'vitest';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { checkRecordBelongs, splitStale, UnitLookup } from '../../src/plan/unitRecords.js';
import type { WorkUnit } from '../../src/checks/workUnit.js';
import type { DragonGameRecord } from '../../src/checks/dragon/records.js';

function game(key: string, digest: string | null = 'd1'): DragonGameRecord {
  return {
    v: 1,
    kind: 'game',
    check: 'dragon',
    model: 'm:1b',
    digest,
    key,
    game: 0,
    prompt_sha256: 'p',
    result: 'won',
    capped: false,
    turns: 1,
    decisions: 1,
    cells_visited: 1,
    treasure_found: true,
    wounds: 0,
    fingerprint: 'f',
  };
}

const unit: WorkUnit = {
  check: 'dragon',
  model: 'm:1b',
  key: 'dragon/seed-3',
  expectedCalls: 10,
  isComplete: () => false,
  execute: async () => {},
};

describe('resume', () => {
  it('refuses a record of another unit or digest', () => {
    expect(() => checkRecordBelongs(game('dragon/seed-3/game'), unit, 'd1')).not.toThrow();
    expect(() => checkRecordBelongs(game('dragon/seed-30/game'), unit, 'd1')).toThrow(
      /emitted a record for dragon\/m:1b\/dragon\/seed-30\/game/,
    );
    expect(() => checkRecordBelongs(game('dragon/seed-3/game', 'd2'), unit, 'd1')).toThrow(
      /resume would not find it/,
    );
  });

  it('splits off the records a unit rejects as written under other settings', () => {
    const fresh = game('dragon/seed-3/game');
    const old = { ...game('dragon/seed-3/decision-0'), prompt_sha256: 'old' };
    const otherDigest = { ...game('dragon/seed-3/decision-1', 'd2'), prompt_sha256: 'old' };
    const player = { ...game('dragon/seed-3/game'), model: 'player:careful' };
    const judging: WorkUnit = {
      ...unit,
      current: (records) => records.filter((r) => r.prompt_sha256 === 'p'),
    };
    const split = splitStale([old, fresh, player, otherDigest], [judging]);
    expect(split.current).toEqual([fresh, player]);
    expect(split.stale).toEqual([old, otherDigest]);
    // The player's record belongs to no unit of the plan; the checks deal with it.
    expect(split.unplanned).toEqual([player]);
    // The unit has a current record (digest d1), so it is not one the log holds only as stale.
    expect(split.staleUnits).toEqual([]);
    expect(splitStale([old, otherDigest], [judging]).staleUnits).toEqual([judging]);
    // A unit without `current` accepts all its records.
    expect(splitStale([old, fresh], [unit]).stale).toEqual([]);
  });

  it('finds the unit of a record by its key or longest "/" prefix; of two units with one key, the later', () => {
    const at = (key: string, model = 'm:1b'): WorkUnit => ({ ...unit, key, model });
    const units = [
      at('dragon/seed-3'),
      at('dragon/seed-30'),
      at('dragon/seed-3/extra'),
      at('dragon/seed-1'),
      at('dragon/seed-3', 'other:1b'),
      at('dragon/seed-30'),
    ];
    const lookup = new UnitLookup(units);
    const found = (key: string, model = 'm:1b'): number => {
      const owner = lookup.owner({ ...game(key), model });
      return owner ? units.indexOf(owner) : -1;
    };
    expect(found('dragon/seed-3')).toBe(0);
    expect(found('dragon/seed-3/decision-4')).toBe(0);
    expect(found('dragon/seed-3/extra/decision-0')).toBe(2);
    expect(found('dragon/seed-30/decision-1')).toBe(5);
    expect(found('dragon/seed-1')).toBe(3);
    expect(found('dragon/seed-2')).toBe(-1);
    expect(found('dragon/seed')).toBe(-1);
    expect(found('dragon/seed-3', 'other:1b')).toBe(4);
    expect(found('dragon/seed-1', 'other:1b')).toBe(-1);
    expect(found('dragon/seed-3', 'third:1b')).toBe(-1);
    expect(
      lookup.positionOf({
        ...game('dragon/seed-3/decision-0'),
        check: 'churn',
      } as unknown as SampleRecord),
    ).toBe(-1);
  });
});

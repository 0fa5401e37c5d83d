/**
 * The speed check reads every check's records, and their place in the log stands for the time
 * they were measured (the server's drift is fitted on it). A maze game's moves are judged
 * together once the log is read, so they reach the folds after the other checks' records: each
 * still comes with its own place in the log, not the place it was folded at.
 */
import { describe, expect, it } from 'vitest';
import type { AnyCheck, CheckContext, CheckFold } from '../../../src/checks/types.js';
import type { WorkUnit } from '../../../src/checks/workUnit.js';
import { Measuring } from '../../../src/pipeline/measure.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';

const unit = (check: string, key: string, expectedCalls: number): WorkUnit =>
  ({
    check,
    model: 'm',
    key,
    expectedCalls,
    isComplete: () => true,
    execute: async () => {},
  }) as unknown as WorkUnit;

const record = (check: string, key: string): SampleRecord =>
  ({ v: 1, kind: 'call', check, model: 'm', digest: null, key }) as unknown as SampleRecord;

/** A check that keeps, of every check's records, the key and the position it was given. */
function probe(): { check: AnyCheck; seen: string[] } {
  const seen: string[] = [];
  const fold: CheckFold<unknown, unknown> = {
    start: () => null,
    add: (_state, r, position) => {
      seen.push(`${r.check}:${r.key}@${position}`);
    },
    finish: () => null,
  };
  const check = { name: 'timer', fold, log: { everyCheck: true } } as unknown as AnyCheck;
  return { check, seen };
}

describe('records of units judged whole reach a timing fold with their place in the log', () => {
  it('a game interleaved with single answers: each move keeps its position', async () => {
    const { check, seen } = probe();
    const log = [
      record('churn', 'a#0'),
      record('dragon', 'seed1/0'),
      record('churn', 'a#1'),
      record('dragon', 'seed1/1'),
      record('churn', 'a#2'),
      record('dragon', 'seed1/2'),
    ];
    const measuring = new Measuring({
      checks: [{ check, definitions: null }],
      ctx: {} as CheckContext,
      plan: [
        unit('churn', 'a#0', 1),
        unit('churn', 'a#1', 1),
        unit('churn', 'a#2', 1),
        unit('dragon', 'seed1', 3),
      ],
      models: ['m'],
      keepStale: false,
    });
    for (const r of log) measuring.add(r);
    const measured = measuring.finish();
    expect(measured.records).toBe(6);
    // The game's moves come last, each with the place it held between the answers.
    expect(seen).toEqual([
      'churn:a#0@0',
      'churn:a#1@2',
      'churn:a#2@4',
      'dragon:seed1/0@1',
      'dragon:seed1/1@3',
      'dragon:seed1/2@5',
    ]);
  });
});

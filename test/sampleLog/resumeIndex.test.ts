import { describe, expect, it } from 'vitest';
import {
  type DragonCallRecord,
  ResumeIndex,
  type SampleRecord,
} from '../../src/sampleLog/index.js';

const decision = (key: string, digest: string | null, decisionIndex: number): DragonCallRecord => ({
  v: 1,
  kind: 'call',
  check: 'dragon',
  model: 'm:1b',
  digest,
  key,
  sample: 0,
  options: { temperature: 0, seed: 1, num_ctx: 4096, num_predict: 64, think: false },
  prompt_sha256: 'p'.repeat(64),
  status: 'ok',
  latency_ms: 3,
  attempts: 1,
  game: 3,
  decision: decisionIndex,
  turn: decisionIndex,
  move: 'up',
  confidence: 0.5,
  outcome: 'moved',
});

describe('ResumeIndex', () => {
  it("finds a unit's records by its key, a game's decisions under the game's key, per digest", () => {
    const records: SampleRecord[] = [
      decision('dragon/seed-3/0', 'd1', 0),
      decision('dragon/seed-3/1', 'd1', 1),
      decision('dragon/seed-3/0', 'd2', 0),
      decision('dragon/seed-30/0', 'd1', 0),
    ];
    const index = new ResumeIndex(records);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([records[0], records[1]]);
    expect(index.get('dragon', 'm:1b', 'd1', 'dragon/seed-3/1')).toEqual([records[1]]);
    expect(index.get('dragon', 'm:1b', 'd2', 'dragon/seed-3')).toEqual([records[2]]);
    expect(index.get('dragon', 'm:1b', null, 'dragon/seed-3')).toEqual([]);
    expect(index.get('dragon', 'other:1b', 'd1', 'dragon/seed-3')).toEqual([]);
    expect(index.get('churn', 'm:1b', 'd1', 'dragon/seed-3')).toEqual([]);
  });
});

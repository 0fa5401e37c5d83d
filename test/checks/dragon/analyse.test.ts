import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analyse.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import { definitionsFor, simulatedGames } from './simulated.js';
import type { DragonCallRecord } from '../../../src/checks/dragon/records.js';

const SEEDS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
const settings = { seeds: SEEDS, bootstrap: 200 };
const definitions = definitionsFor(settings);
const careful = simulatedGames('base:1b', { policy: 'careful' }, SEEDS);
const overconfident = simulatedGames(
  'cand:1b',
  { policy: 'overconfident', 'invalid-rate': 0.1 },
  SEEDS,
);
const section = analyseDragon([...careful, ...overconfident], definitions, {
  baseline: 'base:1b',
  candidate: 'cand:1b',
});

describe('analysis of a careful baseline and an overconfident candidate', () => {
  it('carries the provenance of the protocol and the prompt', () => {
    expect(section).toMatchObject({
      check: 'dragon',
      protocol: 'dragon-calibration/1',
      promptVersion: 'dragon-prompt/1',
      promptSha256: definitions.promptSha256,
      hints: 'walls',
      walls: 40,
      seeds: SEEDS,
      bins: { count: 10, edges: 'lower-inclusive' },
      bootstrap: { replicates: 200, resampled: 'games' },
    });
    expect(section.baseline?.digest).toBe('sha256:feed');
  });

  it('sees the candidate state confidence worse, with a paired interval excluding 0', () => {
    const { baseline, candidate, comparison } = section;
    expect(baseline?.ece?.value).toBeLessThan(0.1);
    expect(candidate?.ece?.value).toBeGreaterThan(0.3);
    expect(candidate?.meanConfidence).toBeCloseTo(0.95, 12);
    expect(candidate?.gap).toBeGreaterThan(0.3);
    expect(comparison?.pairedSeeds).toEqual(SEEDS);
    expect(comparison?.onlyBefore).toEqual([]);
    expect(comparison?.onlyAfter).toEqual([]);
    expect(comparison?.ece?.difference.low).toBeGreaterThan(0);
    // Over all ten paired games, the paired values are the series' own.
    expect(comparison?.ece?.after).toBeCloseTo(candidate?.ece?.value ?? Number.NaN, 12);
    expect(comparison?.brier?.after).toBeCloseTo(candidate?.brier ?? Number.NaN, 12);
    expect(comparison?.brier?.difference.low).toBeGreaterThan(0);
    expect(comparison?.level).toBe(0.95);
    // Ten seeds: 1,024 swap patterns; a candidate worse on every seed is the most extreme.
    expect(comparison?.ece?.pValue).toBe(1 / 1024);
  });

  it('counts every decision once and keeps invalid answers out of calibration', () => {
    const c = section.candidate;
    const calls = overconfident.filter((r): r is DragonCallRecord => r.kind === 'call');
    const invalid = calls.filter((r) => r.status === 'invalid').length;
    expect(c?.calls).toBe(calls.length);
    expect(c?.invalid).toBe(invalid);
    expect(c?.invalidRate).toBeCloseTo(invalid / calls.length, 12);
    expect(c?.invalidRate).toBeGreaterThan(0.05);
    expect(c?.invalidRate).toBeLessThan(0.15);
    expect(c?.moves).toBe(calls.length - invalid - (c?.passes ?? 0));
    expect(c?.bins.reduce((n, b) => n + b.moves, 0)).toBe(c?.moves);
    expect(c?.timeoutRate).toBe(0);
    expect(c?.perturbed).toBe(false);
    expect(c?.meanLatencyMs).toBe(40);
  });

  it('decomposes the Brier score exactly and reports per-bin Wilson intervals', () => {
    for (const s of [section.baseline, section.candidate]) {
      const d = s?.decomposition;
      if (!d) throw new Error('no decomposition');
      const sum =
        d.reliability - d.resolution + d.uncertainty + d.withinBinVariance - d.withinBinCovariance;
      expect(sum).toBeCloseTo(d.brier, 12);
      for (const bin of s.bins.filter((b) => b.moves > 0)) {
        expect(bin.wilsonLow).toBeLessThanOrEqual(bin.successShare ?? -1);
        expect(bin.wilsonHigh).toBeGreaterThanOrEqual(bin.successShare ?? 2);
      }
    }
  });

  it('reports every game with its result and fingerprint', () => {
    const games = section.baseline?.games ?? [];
    expect(games.map((g) => g.seed)).toEqual(SEEDS);
    for (const g of games) expect(g.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(section.baseline?.wins.games).toBe(10);
    expect(section.baseline?.knownWallRepeats).toBe(0);
    expect(section.candidate?.knownWallRepeatRate).toBeGreaterThan(0.2);
  });

  it('gives the same section when a resumed run or overlapping shards repeat records', () => {
    const again = analyseDragon(
      [...careful, ...overconfident, ...careful.slice(0, 50)],
      definitions,
      {
        baseline: 'base:1b',
        candidate: 'cand:1b',
      },
    );
    expect(again).toEqual(section);
  });

  it('drops decisions left over from a replaced attempt past the end of the game', () => {
    const calls = careful.filter(
      (r): r is DragonCallRecord => r.kind === 'call' && r.check === 'dragon' && r.game === 4,
    );
    const last = calls.at(-1);
    if (!last) throw new Error('no call');
    const leftover: DragonCallRecord = { ...last, decision: last.decision + 1, outcome: 'wall' };
    const again = analyseDragon([leftover, ...careful, ...overconfident], definitions, {
      baseline: 'base:1b',
      candidate: 'cand:1b',
    });
    expect(again.baseline?.calls).toBe(section.baseline?.calls);
  });

  it('leaves out records of another prompt variant and says so', () => {
    const local = simulatedGames('base:1b', { policy: 'careful' }, [0], { hints: 'local' });
    const mixed = analyseDragon([...careful, ...local], definitions, {
      baseline: 'base:1b',
      candidate: null,
    });
    expect(mixed.baseline?.calls).toBe(section.baseline?.calls);
    expect(mixed.notices.join(' ')).toMatch(/another prompt/);
  });

  it('lists unfinished and missing games', () => {
    const partial = careful.filter(
      (r) => r.check === 'dragon' && !(r.game === 3 && r.kind === 'game') && r.game !== 7,
    );
    const s = analyseDragon(partial, definitions, { baseline: 'base:1b', candidate: null });
    expect(s.baseline?.unfinishedSeeds).toEqual([3]);
    expect(s.baseline?.missingSeeds).toEqual([7]);
    expect(s.baseline?.games).toHaveLength(8);
    expect(s.comparison).toBeNull();
  });

  it('marks a series with more than 5% timeouts perturbed', () => {
    let n = 0;
    const slow = careful.map((r): SampleRecord => {
      if (r.kind !== 'call' || r.check !== 'dragon' || n++ % 10 !== 0) return r;
      return { ...r, status: 'timeout', confidence: null, move: 'pass', outcome: 'pass' };
    });
    const s = analyseDragon(slow, definitions, { baseline: 'base:1b', candidate: null });
    expect(s.baseline?.timeoutRate).toBeGreaterThan(0.05);
    expect(s.baseline?.perturbed).toBe(true);
    expect(s.baseline?.invalid).toBe(0);
  });

  it('plays the configured reference players when the log has none', () => {
    const withPlayers = definitionsFor({
      ...settings,
      referencePlayers: ['careful', 'overconfident'],
    });
    const s = analyseDragon(careful, withPlayers, { baseline: 'base:1b', candidate: null });
    expect(s.referencePlayers.map((p) => p.model)).toEqual([
      'player:careful',
      'player:overconfident',
    ]);
    expect(
      s.referencePlayers.every((p) => p.role === 'reference' && p.meanLatencyMs === null),
    ).toBe(true);
    expect(s.instrument?.ranked).toBe(true);
    expect(s.instrument?.order).toEqual(['careful', 'overconfident']);
    expect(s.instrument?.separations.map((x) => [x.worse, x.better, x.separated])).toEqual([
      ['overconfident', 'careful', true],
    ]);
  });
});

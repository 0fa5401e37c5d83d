import { describe, expect, it } from 'vitest';
import { analyseDragon } from '../../../src/checks/dragon/analyse.js';
import { dragonDefinitions } from '../../../src/checks/dragon/definitions.js';
import {
  CAREFUL_AT_DEFAULT_WALLS,
  carefulConfidence,
  measureCarefulConfidence,
  playReferenceGames,
  referenceAnswer,
} from '../../../src/checks/dragon/players.js';
import { dragonSettingsSchema } from '../../../src/checks/dragon/settings.js';
import { DEFAULT_WALLS } from '../../../src/checks/dragon/protocol.js';
import { createRng } from '../../../src/stats/prng.js';
import type { DragonCallRecord } from '../../../src/checks/dragon/records.js';

describe('reference players', () => {
  it('rank as built over seeds 0–99: careful lowest ECE, overconfident highest', () => {
    const settings = dragonSettingsSchema.parse({
      seeds: '0-99',
      bootstrap: 200,
      referencePlayers: ['random', 'overconfident', 'careful'],
    });
    const section = analyseDragon([], dragonDefinitions(settings), {
      baseline: 'none',
      candidate: null,
    });
    const ece = Object.fromEntries(section.referencePlayers.map((p) => [p.player, p.ece?.value]));
    // Measured values (docs/dragon-protocol.md): careful ≈ 0.014, random ≈ 0.061,
    // overconfident ≈ 0.407. The order is the acceptance criterion; the bounds keep the margins
    // honest.
    expect(ece.careful).toBeLessThan(0.03);
    expect(ece.random).toBeGreaterThan(0.03);
    expect(ece.overconfident).toBeGreaterThan(0.3);
    expect(section.instrument?.ranked).toBe(true);
    expect(section.instrument?.order).toEqual(['careful', 'random', 'overconfident']);
    for (const s of section.instrument?.separations ?? []) {
      expect(s.difference.low).toBeGreaterThan(0.25);
    }
    // Every ECE interval contains its estimate (bias-corrected, not plain percentile).
    for (const p of section.referencePlayers) {
      expect(p.ece?.low).toBeLessThanOrEqual(p.ece?.value ?? Number.NaN);
      expect(p.ece?.high).toBeGreaterThanOrEqual(p.ece?.value ?? Number.NaN);
    }
    const careful = section.referencePlayers.find((p) => p.player === 'careful');
    expect(careful?.knownWallRepeats).toBe(0);
    expect(careful?.games).toHaveLength(100);
    const overconfident = section.referencePlayers.find((p) => p.player === 'overconfident');
    // Uniform moves hit the border and known walls; constant confidence resolves nothing.
    expect(overconfident?.knownWallRepeatRate).toBeGreaterThan(0.2);
    expect(overconfident?.resolution).toBeCloseTo(0, 12);
    expect(overconfident?.distinctConfidences).toBe(1);
  });

  it('are deterministic and produce model-shaped records', () => {
    const a = playReferenceGames('careful', [3, 4], 40);
    const b = playReferenceGames('careful', [3, 4], 40);
    expect(a).toEqual(b);
    const games = a.filter((r) => r.kind === 'game');
    expect(games.map((g) => g.game)).toEqual([3, 4]);
    const call = a[0] as DragonCallRecord;
    expect(call).toMatchObject({
      model: 'player:careful',
      player: 'careful',
      check: 'dragon',
      status: 'ok',
      decision: 0,
    });
  });

  it('careful states (112 − walls)/112 toward unvisited cells and never picks a known wall', () => {
    expect(carefulConfidence(40).unexplored).toBe(0.643); // 72/112 = 0.642857…
    expect(carefulConfidence(0).unexplored).toBe(1);
    expect(carefulConfidence(40).explored).toBeGreaterThan(0.9);
    // The default wall count's figures are written in the source: measured again, they agree.
    expect(measureCarefulConfidence(DEFAULT_WALLS)).toEqual(CAREFUL_AT_DEFAULT_WALLS);
    expect(carefulConfidence(DEFAULT_WALLS)).toBe(CAREFUL_AT_DEFAULT_WALLS);
    const rng = createRng(1);
    for (let i = 0; i < 50; i++) {
      const answer = referenceAnswer(
        'careful',
        {
          position: { row: 0, col: 0 },
          visited: [{ row: 0, col: 0 }],
          blockedHere: ['up', 'left', 'right'],
        },
        rng,
        40,
      );
      expect(answer).toEqual({ move: 'down', confidence: 0.643 });
    }
  });
});

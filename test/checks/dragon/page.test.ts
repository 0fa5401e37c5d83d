/**
 * The dragon part of report.html: each logged game replayed through the engine. The replay is
 * checked against the rules themselves: a move that advanced lands one cell away in its
 * direction (or back at the camp after a wound), a bump stays put and names a wall of the
 * maze, and a log the maze does not reproduce stops the replay with a sentence.
 */
import { CHECKS } from '../../../src/checks/builtIn.js';
import { describe, expect, it } from 'vitest';
import { dragonCheck } from '../../../src/checks/dragon/index.js';
import { dragonPage } from '../../../src/checks/dragon/report/page.js';
import type { DragonPageGame } from '../../../src/checks/dragon/page/types.js';
import { loadConfig } from '../../../src/config/load.js';
import { checkContext } from '../../../src/checks/context.js';
import '../../../src/checks/builtIn.js';
import type { SampleRecord } from '../../../src/sampleLog/index.js';
import { simulatedGames } from './simulated.js';
import { foldRecords } from '../../../src/checks/fold.js';

const SEEDS = [0, 1, 2];
const DELTA: Record<string, [number, number]> = {
  up: [-1, 0],
  down: [1, 0],
  left: [0, -1],
  right: [0, 1],
};

function context() {
  const loaded = loadConfig({
    checks: CHECKS,
    file: null,
    env: {},
    overrides: [
      { path: ['models', 'baseline'], value: 'base', source: 'test' },
      { path: ['checks'], value: ['dragon'], source: 'test' },
      { path: ['dragon', 'seeds'], value: SEEDS, source: 'test' },
      { path: ['dragon', 'referencePlayers'], value: [], source: 'test' },
    ],
  });
  return checkContext(loaded);
}

async function pageOf(records: SampleRecord[]) {
  const ctx = context();
  const definitions = await dragonCheck.load(ctx);
  const section = foldRecords(dragonCheck.fold, records, definitions, ctx);
  return dragonPage({ section, collected: records, definitions, ctx });
}

function hasWall(game: DragonPageGame, wall: [number, number, string]): boolean {
  return game.walls.some((w) => w[0] === wall[0] && w[1] === wall[1] && w[2] === wall[2]);
}

describe('dragonPage', () => {
  const records = simulatedGames('base', { policy: 'careful' }, SEEDS);

  it('replays every game by the rules, step by step', async () => {
    const page = await pageOf(records);
    expect(page.games.map((g) => g.seed)).toEqual(SEEDS);
    for (const game of page.games) {
      const play = game.plays[0];
      expect(play?.note).toBeNull();
      const decisions = records.filter(
        (r) => r.kind === 'call' && r.check === 'dragon' && r.game === game.seed,
      );
      expect(play?.steps).toHaveLength(decisions.length);
      let at = game.camp;
      for (const step of play?.steps ?? []) {
        const [dr, dc] = DELTA[step.m] ?? [0, 0];
        // A wound (stepping onto the dragon, or caught after the turn) sends the player home.
        if (step.o === 'wounded' || step.caught === 'wounded') expect(step.at).toEqual(game.camp);
        else if (step.o === 'wall' || step.o === 'known_wall' || step.o === 'pass')
          expect(step.at).toEqual(at);
        else if (step.o === 'moved' || step.o === 'treasure')
          expect(step.at).toEqual([at[0] + dr, at[1] + dc]);
        if (step.o === 'wall') expect(step.w && hasWall(game, step.w)).toBe(true);
        at = step.at;
      }
    }
  });

  it('stops a replay the maze does not reproduce, and says where', async () => {
    let changed = false;
    const altered = records.map((r) => {
      if (changed || r.kind !== 'call' || r.check !== 'dragon' || r.game !== 1 || r.decision !== 2)
        return r;
      changed = true;
      return { ...r, outcome: r.outcome === 'wall' ? 'moved' : 'wall' } as SampleRecord;
    });
    const page = await pageOf(altered);
    const play = page.games.find((g) => g.seed === 1)?.plays[0];
    expect(play?.steps).toHaveLength(2);
    expect(play?.note).toMatch(/^At decision 2 the log says/);
  });
});

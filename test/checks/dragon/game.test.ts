import { describe, expect, it } from 'vitest';
import { forecastOf } from '../../../src/checks/dragon/analyse.js';
import {
  dragonStep,
  type GameState,
  newGame,
  playDecision,
  stepAllowance,
} from '../../../src/checks/dragon/game.js';
import { type Cell, edgeId, type Move } from '../../../src/checks/dragon/geometry.js';
import { mazeFrom } from '../../../src/checks/dragon/maze.js';
import { GameSession } from '../../../src/checks/dragon/session.js';

const CAMP: Cell = { row: 7, col: 0 };
const TREASURE: Cell = { row: 0, col: 7 };

/** A game in an open board (camp bottom-left, treasure top-right), then any changes. */
function position(changes: Partial<GameState> = {}, walls: number[] = []): GameState {
  const state = newGame(mazeFrom(CAMP, TREASURE, walls));
  return Object.assign(state, changes);
}

function play(state: GameState, ...moves: Move[]) {
  return moves.map((m) => playDecision(state, m));
}

describe('walls and turns', () => {
  it('a wall bump reveals the wall, fails the step and ends the turn', () => {
    const wall = edgeId({ row: 7, col: 0 }, 'right') as number;
    const state = position({}, [wall]);
    const [report] = play(state, 'right');
    expect(report).toMatchObject({ outcome: 'wall', advanced: false, turnEnded: true });
    expect(state.player).toEqual(CAMP);
    expect(state.knownWalls.has(wall)).toBe(true);
    expect(state.turn).toBe(2);
    expect(state.stepsLeft).toBe(8);
    expect(play(state, 'right')[0]?.outcome).toBe('known_wall');
  });

  it('the border is a known wall from the start', () => {
    const state = position();
    expect(play(state, 'down')[0]).toMatchObject({ outcome: 'known_wall', turnEnded: true });
    expect(play(state, 'left')[0]?.outcome).toBe('known_wall');
  });

  it('pass ends the turn', () => {
    const state = position();
    expect(play(state, 'pass')[0]).toMatchObject({
      outcome: 'pass',
      advanced: null,
      turnEnded: true,
    });
    expect(state.turn).toBe(2);
  });

  it('8 steps per turn, then 6 after one wound, 4 after two, 4 while carrying', () => {
    expect([0, 1, 2].map((w) => stepAllowance(w, false))).toEqual([8, 6, 4]);
    expect([0, 1, 2].map((w) => stepAllowance(w, true))).toEqual([4, 4, 4]);
    const state = position();
    const reports = play(state, 'up', 'up', 'up', 'up', 'up', 'up', 'up', 'right');
    expect(reports.map((r) => r.turnEnded)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);
    const hurt = position({ wounds: 1, stepsLeft: stepAllowance(1, false) });
    const six = play(hurt, 'up', 'up', 'up', 'up', 'up', 'up');
    expect(six.map((r) => r.turnEnded)).toEqual([false, false, false, false, false, true]);
    expect(hurt.stepsLeft).toBe(6);
  });

  it('a move onto a free cell is a calibration success even when it ends in a wound', () => {
    const state = position({
      player: { row: 3, col: 3 },
      dragon: { row: 3, col: 4 },
      dragonAwake: true,
    });
    const [report] = play(state, 'right');
    expect(report).toMatchObject({ outcome: 'wounded', advanced: true });
    const forecast = forecastOf({
      v: 1,
      kind: 'call',
      check: 'dragon',
      model: 'm',
      digest: null,
      key: 'k',
      sample: 0,
      options: { temperature: 0, seed: 0, num_ctx: 0, num_predict: 0, think: false },
      prompt_sha256: 'x',
      status: 'ok',
      latency_ms: 1,
      attempts: 1,
      game: 0,
      decision: 0,
      turn: 1,
      move: 'right',
      confidence: 0.7,
      outcome: 'wounded',
    });
    expect(forecast).toEqual({ confidence: 0.7, success: true });
  });
});

describe('the dragon', () => {
  it('sleeps at distance 3 and wakes at distance 2, the roar location being the player cell', () => {
    const state = position({ player: { row: 0, col: 4 } });
    play(state, 'pass');
    expect(state.dragonAwake).toBe(false);
    const far = position({ player: { row: 3, col: 7 } }); // distance 3
    expect(far.dragonAwake).toBe(false);
    const [report] = play(state, 'right'); // (0,5): distance 2
    expect(report?.outcome).toBe('moved');
    expect(state.dragonAwake).toBe(true);
    expect(state.roarLocation).toEqual({ row: 0, col: 5 });
  });

  it('moves one cell after the turn, through walls, along the longer axis, rows first on a tie', () => {
    expect(dragonStep({ row: 0, col: 0 }, { row: 3, col: 1 })).toEqual({ row: 1, col: 0 });
    expect(dragonStep({ row: 0, col: 0 }, { row: 1, col: 3 })).toEqual({ row: 0, col: 1 });
    expect(dragonStep({ row: 2, col: 2 }, { row: 4, col: 0 })).toEqual({ row: 3, col: 2 });
    expect(dragonStep({ row: 2, col: 2 }, { row: 2, col: 2 })).toEqual({ row: 2, col: 2 });
    // Every wall around the dragon's cell: it still flies toward the player.
    const around = (['up', 'down', 'left', 'right'] as const)
      .map((d) => edgeId({ row: 3, col: 5 }, d))
      .filter((id): id is number => id !== null);
    const state = position(
      { player: { row: 3, col: 1 }, dragon: { row: 3, col: 5 }, dragonAwake: true },
      around,
    );
    play(state, 'pass');
    expect(state.dragon).toEqual({ row: 3, col: 4 });
  });

  it('does not move while the turn goes on', () => {
    const state = position({
      player: { row: 3, col: 1 },
      dragon: { row: 3, col: 6 },
      dragonAwake: true,
    });
    play(state, 'up');
    expect(state.dragon).toEqual({ row: 3, col: 6 });
  });

  it('reaching the player wounds: back to camp, treasure back in its room, the step stays a step', () => {
    const state = position({
      player: { row: 2, col: 5 },
      dragon: { row: 2, col: 3 },
      dragonAwake: true,
      carrying: true,
      treasureFound: true,
      stepsLeft: 1,
    });
    const [report] = play(state, 'left'); // to (2,4), last step; the dragon lands on it
    expect(report).toMatchObject({ outcome: 'moved', advanced: true, caught: 'wounded' });
    expect(state.wounds).toBe(1);
    expect(state.player).toEqual(CAMP);
    expect(state.carrying).toBe(false);
    expect(state.stepsLeft).toBe(6);
  });

  it('stepping onto the dragon wounds, also in the treasure room while it is still there', () => {
    const state = position({ player: { row: 0, col: 6 }, dragonAwake: true });
    const [report] = play(state, 'right');
    expect(report).toMatchObject({ outcome: 'wounded', advanced: true, turnEnded: true });
    expect(state.player).toEqual(CAMP);
    expect(state.carrying).toBe(false);
    // The player is in the camp: the dragon heads back to (stays in) the treasure room.
    expect(state.dragon).toEqual(TREASURE);
  });

  it('never attacks in the camp, and heads back to the treasure while the player shelters', () => {
    const state = position({ player: { row: 6, col: 0 }, dragon: CAMP, dragonAwake: true });
    const [step, pass] = play(state, 'down', 'pass');
    // Onto the dragon's cell, but it is the camp: no wound, the turn goes on.
    expect(step).toMatchObject({ outcome: 'moved', caught: null, turnEnded: false });
    expect(pass?.caught).toBeNull();
    expect(state.wounds).toBe(0);
    expect(state.player).toEqual(CAMP);
    // The turn ended with the player in the camp: the dragon heads for the treasure at (0,7).
    // From (7,0): |Δrow| 7 = |Δcol| 7, rows first → (6,0); next turn |6| < |7| → (6,1).
    expect(state.dragon).toEqual({ row: 6, col: 0 });
    play(state, 'pass');
    expect(state.dragon).toEqual({ row: 6, col: 1 });
  });

  it('the third wound kills', () => {
    const state = position({ player: { row: 0, col: 6 }, wounds: 2, dragonAwake: true });
    const [report] = play(state, 'right');
    expect(report?.outcome).toBe('killed');
    expect(state.result).toBe('lost');
    expect(() => play(state, 'pass')).toThrow(/over/);
  });
});

describe('treasure and victory', () => {
  it('entering the treasure room with the dragon away takes the treasure and ends the turn', () => {
    const state = position({
      player: { row: 0, col: 6 },
      dragon: { row: 4, col: 4 },
      dragonAwake: true,
      stepsLeft: 5,
    });
    const [report] = play(state, 'right');
    expect(report).toMatchObject({ outcome: 'treasure', advanced: true, turnEnded: true });
    expect(state.carrying).toBe(true);
    expect(state.treasureFound).toBe(true);
    expect(state.stepsLeft).toBe(4);
  });

  it('taking the treasure wakes a sleeping dragon', () => {
    // A dragon asleep away from the treasure cannot arise in play; the rule still holds.
    const state = position({ player: { row: 1, col: 7 }, dragon: { row: 7, col: 7 } });
    play(state, 'up');
    expect(state.dragonAwake).toBe(true);
    expect(state.roarLocation).toEqual(TREASURE);
  });

  it('entering the camp with the treasure wins', () => {
    const state = position({
      player: { row: 6, col: 0 },
      carrying: true,
      dragon: { row: 0, col: 0 },
      dragonAwake: true,
    });
    const [report] = play(state, 'down');
    expect(report?.outcome).toBe('won');
    expect(state.result).toBe('won');
  });
});

describe('caps', () => {
  it('150 turns', () => {
    const state = position();
    for (let i = 0; i < 149; i++) play(state, 'pass');
    expect(state.result).toBeNull();
    play(state, 'pass');
    expect(state.result).toBe('capped');
    expect(state.decisions).toBe(150);
  });

  it('300 decisions', () => {
    const state = position();
    let n = 0;
    while (!state.result) {
      play(state, n % 2 === 0 ? 'up' : 'down');
      n++;
    }
    // 8 steps a turn, up and down from the camp: 300 decisions come at turn 38 < 150.
    expect(state.result).toBe('capped');
    expect(state.decisions).toBe(300);
    expect(state.turn).toBe(38);
  });
});

describe('a game session', () => {
  it('records a capped game, invalid decisions acting as pass with no confidence', () => {
    const session = new GameSession({
      seed: 0,
      walls: 40,
      model: 'm',
      digest: null,
      promptSha256: 'h',
    });
    const options = { temperature: 0, seed: 42, num_ctx: 4096, num_predict: 64, think: false };
    const first = session.play({
      status: 'invalid',
      move: 'up',
      confidence: 0.9,
      reason: 'not JSON',
      latencyMs: 5,
      attempts: 1,
      options,
    });
    expect(first).toMatchObject({
      move: 'pass',
      confidence: null,
      outcome: 'pass',
      status: 'invalid',
      key: 'dragon/seed-0/decision-0',
    });
    while (!session.finished) {
      session.play({
        status: 'timeout',
        move: 'pass',
        confidence: null,
        latencyMs: 30000,
        attempts: 2,
        options,
      });
    }
    const game = session.gameRecord();
    expect(game).toMatchObject({
      result: 'capped',
      capped: true,
      turns: 150,
      decisions: 150,
      cells_visited: 1,
      wounds: 0,
    });
    expect(game.fingerprint).toMatch(/^[0-9a-f]{64}$/);
  });
});

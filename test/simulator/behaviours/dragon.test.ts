import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { newGame, observe, playDecision } from '../../../src/checks/dragon/game.js';
import { edgeId } from '../../../src/checks/dragon/geometry.js';
import { mazeFrom } from '../../../src/checks/dragon/maze.js';
import { parseAnswer, renderPrompt } from '../../../src/checks/dragon/prompt.js';
import type { SimulatedChat } from '../../../src/simulator/behaviour.js';
import { dragonBehaviour } from '../../../src/simulator/behaviours/dragon.js';
import { loadScenario } from '../../../src/simulator/scenario.js';

/** At (6,0) after bumping the wall on its right: left is the border, right a known wall. */
function prompt(turn = 0): string {
  const wall = edgeId({ row: 6, col: 0 }, 'right') as number;
  const state = newGame(mazeFrom({ row: 7, col: 0 }, { row: 0, col: 7 }, [wall]));
  playDecision(state, 'up');
  playDecision(state, 'right');
  state.turn += turn;
  return renderPrompt(observe(state), 'walls');
}

function chat(user: string, model = 'sim:1b'): SimulatedChat {
  return { model, system: null, user, format: null, temperature: 0, seed: 42 };
}

function answers(params: unknown, count: number) {
  return Array.from({ length: count }, (_, i) =>
    parseAnswer(dragonBehaviour.answer(chat(prompt(i)), params) ?? ''),
  );
}

describe('the simulated dragon players', () => {
  it('ignore prompts that are not the maze game', () => {
    expect(dragonBehaviour.answer(chat('Which letter is right? A, B, C or D'), {})).toBeNull();
  });

  it('answer the same request the same way, and differently for another model', () => {
    const a = dragonBehaviour.answer(chat(prompt()), { policy: 'overconfident' });
    expect(dragonBehaviour.answer(chat(prompt()), { policy: 'overconfident' })).toBe(a);
    const others = Array.from({ length: 20 }, (_, i) =>
      dragonBehaviour.answer(chat(prompt(), `m${i}`), { policy: 'overconfident' }),
    );
    expect(new Set(others).size).toBeGreaterThan(1);
  });

  it('careful never walks into the wall or border it was told about', () => {
    for (const a of answers({ policy: 'careful' }, 40)) {
      expect(a).toMatchObject({ valid: true });
      // Unvisited (5,0) above, visited (7,0) below: it explores first, at (112 − 40)/112.
      if (a.valid) expect([a.move, a.confidence]).toEqual(['up', 0.643]);
    }
  });

  it('wall-bumper keeps walking into known walls; overconfident says 0.95', () => {
    const bumps = answers({ policy: 'wall-bumper', 'repeat-rate': 1 }, 40);
    expect(bumps.every((a) => a.valid && (a.move === 'left' || a.move === 'right'))).toBe(true);
    const loud = answers({ policy: 'overconfident' }, 40);
    expect(loud.every((a) => a.valid && a.confidence === 0.95)).toBe(true);
  });

  it('sends invalid answers at the configured rate', () => {
    const sent = answers({ policy: 'careful', 'invalid-rate': 0.3 }, 200);
    const invalid = sent.filter((a) => !a.valid).length;
    // Binomial(200, 0.3): mean 60, sd 6.5; ±4 sd.
    expect(invalid).toBeGreaterThan(34);
    expect(invalid).toBeLessThan(86);
  });

  it('names the field of a wrong scenario block', () => {
    expect(() => dragonBehaviour.answer(chat(prompt()), { policy: 'reckless' })).toThrow(
      /dragon\.policy/,
    );
    expect(() => dragonBehaviour.answer(chat(prompt()), { 'invalid-rate': 2 })).toThrow(
      /dragon\.invalid-rate/,
    );
  });
});

describe('the dragon scenario fixture', () => {
  it('loads, and each model answers the maze prompt by its policy', () => {
    const scenario = loadScenario(
      fileURLToPath(new URL('../../../fixtures/dragon/scenario.yml', import.meta.url)),
    );
    const names = scenario.models.map((m) => m.name);
    expect(names).toEqual(['dragon-careful:1b', 'dragon-overconfident:1b', 'dragon-bumper:1b']);
    const stated = scenario.models.map((m) =>
      parseAnswer(dragonBehaviour.answer(chat(prompt(), m.name), m.behaviours['dragon']) ?? ''),
    );
    expect(stated[0]).toEqual({ valid: true, move: 'up', confidence: 0.643 });
    expect(stated[2]).toMatchObject({ valid: true, confidence: 0.9 });
  });
});

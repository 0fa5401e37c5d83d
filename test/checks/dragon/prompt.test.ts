import { describe, expect, it } from 'vitest';
import { newGame, observe, playDecision } from '../../../src/checks/dragon/game.js';
import { edgeId } from '../../../src/checks/dragon/geometry.js';
import { mazeFrom } from '../../../src/checks/dragon/maze.js';
import {
  parseAnswer,
  promptSha256,
  readPrompt,
  renderPrompt,
} from '../../../src/checks/dragon/prompt.js';

function midGame() {
  // Camp (7,0), treasure (0,7); a wall right of (6,0), found by bumping it.
  const wall = edgeId({ row: 6, col: 0 }, 'right') as number;
  const state = newGame(mazeFrom({ row: 7, col: 0 }, { row: 0, col: 7 }, [wall]));
  playDecision(state, 'up'); // (6,0), 7 steps left
  playDecision(state, 'right'); // wall: turn 2 begins
  return state;
}

describe('the prompt', () => {
  it('shows what the player knows and nothing else', () => {
    const text = renderPrompt(observe(midGame()), 'walls');
    expect(text).toContain('- turn: 2');
    expect(text).toContain('- position: (6,0)');
    expect(text).toContain('- camp: (7,0)');
    expect(text).toContain('- wounds: 0 of 3');
    expect(text).toContain('- steps left this turn: 8');
    expect(text).toContain('- carrying the treasure: no');
    expect(text).toContain('- cells visited: (6,0), (7,0)');
    expect(text).toContain('- walls discovered (each between two cells): (6,0)-(6,1)');
    expect(text).toContain("- dragon's roar heard at: not heard yet");
    expect(text).not.toContain('(0,7)'); // the treasure
    expect(text).not.toMatch(/\{\{/);
  });

  it('the local variant lists blocked directions (border included) instead of walls', () => {
    const text = renderPrompt(observe(midGame()), 'local');
    expect(text).toContain(
      '- directions known to be blocked from your position (walls found and board edge): left, right',
    );
    expect(text).not.toContain('walls discovered');
  });

  it('has one hash per variant, stable across runs (docs/dragon-protocol.md)', () => {
    expect(promptSha256('walls')).toBe(
      '09beaf3125b908a320e8dd15a60f3fa5ca0cd4b1ad2a1429b9be081bcedc9341',
    );
    expect(promptSha256('local')).toBe(
      '1c88ce0bf795f778ba1d39cd98dc01d087b13ff70b611487ce4a53096dc34b76',
    );
  });

  it('reads back into the same situation (what the simulator plays from)', () => {
    for (const hints of ['walls', 'local'] as const) {
      const reading = readPrompt(renderPrompt(observe(midGame()), hints));
      expect(reading).toMatchObject({
        hints,
        turn: 2,
        position: { row: 6, col: 0 },
        camp: { row: 7, col: 0 },
        wounds: 0,
        stepsLeft: 8,
        carrying: false,
        visited: [
          { row: 6, col: 0 },
          { row: 7, col: 0 },
        ],
        blockedHere: ['left', 'right'],
        roarLocation: null,
      });
    }
    expect(readPrompt('What is 2 + 2?')).toBeNull();
  });
});

describe('the answer', () => {
  it('accepts {move, confidence} within bounds', () => {
    expect(parseAnswer('{"move":"up","confidence":0.8}')).toEqual({
      valid: true,
      move: 'up',
      confidence: 0.8,
    });
    expect(parseAnswer(' {"move":"pass","confidence":0} ')).toMatchObject({ valid: true });
  });

  it.each([
    ['', 'empty answer'],
    ['up', 'not JSON'],
    ['[1]', 'not a JSON object'],
    ['{"move":"north","confidence":0.5}', 'move must be'],
    ['{"move":"up","confidence":"0.5"}', 'confidence must be a number'],
    ['{"move":"up","confidence":1.2}', 'outside 0..1'],
    ['{"move":"up","confidence":-0.1}', 'outside 0..1'],
    ['{"move":"up"}', 'confidence must be a number'],
  ])('refuses %j (%s)', (content, reason) => {
    const parsed = parseAnswer(content);
    expect(parsed.valid).toBe(false);
    if (!parsed.valid) expect(parsed.reason).toContain(reason);
  });
});

/**
 * The request a model gets for one decision: versioned text, a JSON-schema answer, and the
 * parser that reads the answer back. The SHA-256 of the template (both messages, with their
 * placeholders) is recorded with every decision and in the report: any wording change shows.
 */
import { createHash } from 'node:crypto';
import type { JsonSchema } from '../../providers/types.js';
import {
  type Cell,
  DIRECTIONS,
  type Direction,
  edgeId,
  formatCell,
  MOVES,
  type Move,
  neighbour,
  type WallSide,
} from './geometry.js';
import type { Observation } from './game.js';
import { BOARD_SIZE, LETHAL_WOUNDS, PROTOCOL_VERSION } from './protocol.js';

export const PROMPT_VERSION = 'dragon-prompt/1';

/** `walls`: the raw list of discovered walls. `local`: the blocked directions from the cell. */
export type HintsVariant = 'walls' | 'local';

const LAST = BOARD_SIZE - 1;

export const SYSTEM_PROMPT =
  'You play a maze game, one move per request. Each request describes the whole situation; ' +
  'you remember nothing from earlier requests. Reply with JSON only.';

const KNOWLEDGE_LINE: Record<HintsVariant, string> = {
  walls: '- walls discovered (each between two cells): {{walls}}',
  local:
    '- directions known to be blocked from your position (walls found and board edge): {{blocked}}',
};

function userTemplate(hints: HintsVariant): string {
  return [
    `Maze game (${PROTOCOL_VERSION}).`,
    `The board has ${BOARD_SIZE} rows and ${BOARD_SIZE} columns. A cell is written (row,column): rows 0 to ${LAST} from top to bottom, columns 0 to ${LAST} from left to right. "up" goes to row - 1, "down" to row + 1, "left" to column - 1, "right" to column + 1.`,
    'Walls between neighbouring cells are invisible until you walk into one. The edge of the board is a wall all around.',
    `A treasure lies in an unknown cell, guarded by a sleeping dragon. Find it and carry it back to your camp to win. Once awake, the dragon flies toward you through walls; if it catches you outside your camp you are wounded and sent back to camp, and wound number ${LETHAL_WOUNDS} kills you. Your camp is a safe place.`,
    'Walking into a wall fails and ends your turn. "pass" ends your turn.',
    '',
    'Your situation:',
    '- turn: {{turn}}',
    '- position: {{position}}',
    '- camp: {{camp}}',
    `- wounds: {{wounds}} of ${LETHAL_WOUNDS}`,
    '- steps left this turn: {{steps}}',
    '- carrying the treasure: {{carrying}}',
    '- cells visited: {{visited}}',
    KNOWLEDGE_LINE[hints],
    "- dragon's roar heard at: {{roar}}",
    '',
    'Reply with a JSON object {"move": "up" | "down" | "left" | "right" | "pass", "confidence": a number from 0 to 1}.',
    '"confidence" is your probability that the move really advances you, meaning that there is no wall in that direction.',
  ].join('\n');
}

export function promptSha256(hints: HintsVariant): string {
  return createHash('sha256')
    .update(`${PROMPT_VERSION}\n${SYSTEM_PROMPT}\n${userTemplate(hints)}`)
    .digest('hex');
}

function formatWall(wall: WallSide): string {
  return `${formatCell(wall.cell)}-${formatCell(neighbour(wall.cell, wall.side) as Cell)}`;
}

function list(items: readonly string[]): string {
  return items.length > 0 ? items.join(', ') : 'none';
}

/** The user message for one decision: the template with its placeholders filled. */
export function renderPrompt(observation: Observation, hints: HintsVariant): string {
  const values: Record<string, string> = {
    turn: String(observation.turn),
    position: formatCell(observation.position),
    camp: formatCell(observation.camp),
    wounds: String(observation.wounds),
    steps: String(observation.stepsLeft),
    carrying: observation.carrying ? 'yes' : 'no',
    visited: list(observation.visited.map(formatCell)),
    walls: list(observation.knownWalls.map(formatWall)),
    blocked: list(observation.blockedHere),
    roar: observation.roarLocation ? formatCell(observation.roarLocation) : 'not heard yet',
  };
  return userTemplate(hints).replace(/\{\{(\w+)\}\}/g, (_, name: string) => values[name] ?? '');
}

export const ANSWER_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    move: { type: 'string', enum: [...MOVES] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['move', 'confidence'],
  additionalProperties: false,
};

export type ParsedAnswer =
  | { valid: true; move: Move; confidence: number }
  | { valid: false; reason: string };

/** Reads `{move, confidence}`; anything else is invalid, with the reason in words. */
export function parseAnswer(content: string): ParsedAnswer {
  let value: unknown;
  try {
    value = JSON.parse(content.trim());
  } catch {
    return { valid: false, reason: content.trim() === '' ? 'empty answer' : 'not JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { valid: false, reason: 'not a JSON object' };
  }
  const move: unknown = Reflect.get(value, 'move');
  const confidence: unknown = Reflect.get(value, 'confidence');
  if (typeof move !== 'string' || !(MOVES as readonly string[]).includes(move)) {
    return { valid: false, reason: `move must be one of ${MOVES.join(', ')}` };
  }
  if (typeof confidence !== 'number' || !Number.isFinite(confidence)) {
    return { valid: false, reason: 'confidence must be a number' };
  }
  if (confidence < 0 || confidence > 1) {
    return { valid: false, reason: `confidence ${confidence} is outside 0..1` };
  }
  return { valid: true, move: move as Move, confidence };
}

/** What a reader of the prompt text can know (the simulator plays from this). */
export interface PromptReading {
  hints: HintsVariant;
  turn: number;
  position: Cell;
  camp: Cell;
  wounds: number;
  stepsLeft: number;
  carrying: boolean;
  visited: Cell[];
  /** Directions from the position blocked by the border or a wall the text mentions. */
  blockedHere: Direction[];
  roarLocation: Cell | null;
}

const CELL = /\((\d+),(\d+)\)/g;

function cells(text: string): Cell[] {
  return [...text.matchAll(CELL)].map((m) => ({ row: Number(m[1]), col: Number(m[2]) }));
}

function field(text: string, label: string): string | null {
  const line = text.split('\n').find((l) => l.startsWith(`- ${label}`));
  return line ? line.slice(line.indexOf(':', label.length + 2) + 1).trim() : null;
}

/** Reads the situation back from a rendered prompt; null when the text is not one. */
export function readPrompt(text: string): PromptReading | null {
  if (!text.startsWith(`Maze game (${PROTOCOL_VERSION}).`)) return null;
  const position = cells(field(text, 'position') ?? '')[0];
  const camp = cells(field(text, 'camp') ?? '')[0];
  if (!position || !camp) return null;
  const wallsLine = field(text, 'walls discovered');
  let blockedHere: Direction[];
  if (wallsLine !== null) {
    const walls = new Set<number>();
    const pairs = cells(wallsLine);
    for (let i = 0; i + 1 < pairs.length; i += 2) {
      const [a, b] = [pairs[i] as Cell, pairs[i + 1] as Cell];
      const direction = DIRECTIONS.find((d) => {
        const next = neighbour(a, d);
        return next !== null && next.row === b.row && next.col === b.col;
      });
      if (direction) walls.add(edgeId(a, direction) as number);
    }
    blockedHere = DIRECTIONS.filter((d) => {
      const id = edgeId(position, d);
      return id === null || walls.has(id);
    });
  } else {
    const blocked = field(text, 'directions known to be blocked') ?? '';
    blockedHere = DIRECTIONS.filter((d) => blocked.split(/,\s*/).includes(d));
  }
  return {
    hints: wallsLine !== null ? 'walls' : 'local',
    turn: Number(field(text, 'turn') ?? 0),
    position,
    camp,
    wounds: Number(field(text, 'wounds')?.split(' ')[0] ?? 0),
    stepsLeft: Number(field(text, 'steps left') ?? 0),
    carrying: field(text, 'carrying') === 'yes',
    visited: cells(field(text, 'cells visited') ?? ''),
    blockedHere,
    roarLocation: cells(field(text, "dragon's roar") ?? '')[0] ?? null,
  };
}

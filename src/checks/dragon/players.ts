/**
 * Reference players: instrument controls that need no model. Each reads only what a model
 * would see, answers {move, confidence}, and plays through the same session code, so its
 * records are indistinguishable in shape from a model's (model = "player:<name>").
 *
 * - random: a uniform direction, confidence 0.5;
 * - overconfident: a uniform direction, confidence 0.95;
 * - careful: never walks into a known wall or the border, explores unvisited neighbours
 *   first, and states the probability of an open edge the protocol actually produces (see
 *   `carefulConfidence`).
 */
import type { RecordedOptions, SampleRecord } from '../../sampleLog/index.js';
import { createRng, type Rng, seedFromText } from '../../stats/prng.js';
import { type Cell, cellIndex, DIRECTIONS, type Direction, neighbour } from './geometry.js';
import { DEFAULT_WALLS, INTERIOR_EDGE_COUNT } from './protocol.js';
import { GameSession } from './session.js';

export const REFERENCE_PLAYERS = ['random', 'overconfident', 'careful'] as const;
export type ReferencePlayer = (typeof REFERENCE_PLAYERS)[number];

/** What a policy needs to know: a subset of both the observation and the prompt reading. */
export interface PlayerView {
  position: Cell;
  visited: readonly Cell[];
  blockedHere: readonly Direction[];
}

export interface PlayerAnswer {
  move: Direction;
  confidence: number;
}

export const RANDOM_CONFIDENCE = 0.5;
export const OVERCONFIDENT_CONFIDENCE = 0.95;

/** Seeds the careful player's explored-neighbour probability is measured on, never tested on. */
export const CAREFUL_MEASUREMENT_SEEDS = { from: 100_000, count: 200 } as const;

export interface CarefulConfidence {
  /** Toward a cell not yet visited: the share of interior edges left open, (112 − walls)/112. */
  unexplored: number;
  /** Toward a visited cell: measured by playing the careful policy on the measurement seeds. */
  explored: number;
}

/**
 * The measurement at the default wall count, done once here instead of in every process that
 * plays the careful player (200 games, a fifth of a second). test/checks/dragon/players.test.ts
 * measures it again and fails when the generator or the policy has changed it.
 */
export const CAREFUL_AT_DEFAULT_WALLS: CarefulConfidence = { unexplored: 0.643, explored: 0.978 };

const carefulCache = new Map<number, CarefulConfidence>([
  [DEFAULT_WALLS, CAREFUL_AT_DEFAULT_WALLS],
]);

/**
 * The probabilities the careful player states. An unexplored neighbour is behind an edge
 * that is open with the protocol's overall open-edge probability. A visited neighbour is
 * usually the cell the player came from, so the edge is far more often open; how often is a
 * property of the generator and the policy, measured once per wall count (deterministic).
 */
export function carefulConfidence(walls: number): CarefulConfidence {
  const cached = carefulCache.get(walls);
  if (cached) return cached;
  const result = measureCarefulConfidence(walls);
  carefulCache.set(walls, result);
  return result;
}

/** Plays the careful policy on the measurement seeds and counts how often a visited edge is open. */
export function measureCarefulConfidence(walls: number): CarefulConfidence {
  const unexplored = (INTERIOR_EDGE_COUNT - walls) / INTERIOR_EDGE_COUNT;
  let moves = 0;
  let advanced = 0;
  const { from, count } = CAREFUL_MEASUREMENT_SEEDS;
  for (let seed = from; seed < from + count; seed++) {
    const session = new GameSession({
      seed,
      walls,
      model: 'measure',
      digest: null,
      promptSha256: '',
    });
    const rng = createRng(seed);
    while (!session.finished) {
      const view = session.observation();
      const { move, explored } = carefulMove(view, rng);
      const record = session.play(answerInput(move, 0));
      if (explored) {
        moves++;
        if (record.outcome !== 'wall' && record.outcome !== 'known_wall') advanced++;
      }
    }
  }
  // Stated to three decimals, as a person would say it; the rounding costs nothing measurable.
  return {
    unexplored: roundTo3(unexplored),
    explored: roundTo3(moves > 0 ? advanced / moves : unexplored),
  };
}

function roundTo3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function carefulMove(view: PlayerView, rng: Rng): { move: Direction; explored: boolean } {
  const open = DIRECTIONS.filter((d) => !view.blockedHere.includes(d));
  // The border alone always leaves two directions, so `open` is empty only when the player
  // has (wrongly) been told every side is blocked; walking into something then is unavoidable.
  if (open.length === 0) return { move: DIRECTIONS[rng.int(4)] as Direction, explored: false };
  const seen = new Set(view.visited.map(cellIndex));
  const fresh = open.filter((d) => !seen.has(cellIndex(neighbour(view.position, d) as Cell)));
  if (fresh.length > 0) return { move: fresh[rng.int(fresh.length)] as Direction, explored: false };
  return { move: open[rng.int(open.length)] as Direction, explored: true };
}

/** One decision of a reference policy from what the player sees. */
export function referenceAnswer(
  player: ReferencePlayer,
  view: PlayerView,
  rng: Rng,
  walls: number,
): PlayerAnswer {
  switch (player) {
    case 'random':
      return { move: DIRECTIONS[rng.int(4)] as Direction, confidence: RANDOM_CONFIDENCE };
    case 'overconfident':
      return { move: DIRECTIONS[rng.int(4)] as Direction, confidence: OVERCONFIDENT_CONFIDENCE };
    case 'careful': {
      const { move, explored } = carefulMove(view, rng);
      const stated = carefulConfidence(walls);
      return { move, confidence: explored ? stated.explored : stated.unexplored };
    }
  }
}

/** Reference players send nothing to a server; these are the options their records carry. */
const NO_REQUEST: RecordedOptions = {
  temperature: 0,
  seed: 0,
  num_ctx: 0,
  num_predict: 0,
  think: false,
};

function answerInput(move: Direction, confidence: number) {
  return {
    status: 'ok' as const,
    move,
    confidence,
    latencyMs: 0,
    attempts: 1,
    options: NO_REQUEST,
  };
}

/** Reference players read no prompt; their records say so instead of carrying a hash. */
export const REFERENCE_PROMPT = 'none';

const REFERENCE_PREFIX = 'player:';

export function referenceModel(player: ReferencePlayer): string {
  return `${REFERENCE_PREFIX}${player}`;
}

/** True for the model name under which a reference player's records are written. */
export function isReferenceModel(model: string): boolean {
  return model.startsWith(REFERENCE_PREFIX);
}

/**
 * Plays a reference player over the seeds; the records (decisions, then one game record per
 * seed) are what a model's run would have written. Deterministic: the player's draws are
 * seeded by (player, walls, seed).
 */
export function playReferenceGames(
  player: ReferencePlayer,
  seeds: readonly number[],
  walls: number,
): SampleRecord[] {
  const records: SampleRecord[] = [];
  for (const seed of seeds) {
    const session = new GameSession({
      seed,
      walls,
      model: referenceModel(player),
      digest: null,
      promptSha256: REFERENCE_PROMPT,
      player,
    });
    const rng = createRng(seedFromText(`${player}/${walls}/${seed}`));
    while (!session.finished) {
      const answer = referenceAnswer(player, session.observation(), rng, walls);
      records.push(session.play(answerInput(answer.move, answer.confidence)));
    }
    records.push(session.gameRecord());
  }
  return records;
}

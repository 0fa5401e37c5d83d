/**
 * One work unit per (model, seed): a whole game, its decisions sent one at a time because
 * each depends on the last. Every decision is written to the sample log as soon as it is
 * known; a resumed run replays the logged decisions through the engine and carries on.
 */

import { InputError } from '../../errors.js';
import type { ChatOptions, ChatRequest } from '../../providers/types.js';
import {
  type RecordedOptions,
  recordedOptions,
  replyFields,
  type SampleRecord,
  sameRecordedOptions,
} from '../../sampleLog/index.js';
import { isCall } from '../../sampleLog/schema.js';
import type { CallOutcome, UnitContext, WorkUnit } from '../workUnit.js';
import type { DragonDefinitions } from './definitions.js';
import type { Move } from './geometry.js';
import { playReferenceGames } from './players.js';
import { ANSWER_SCHEMA, parseAnswer, renderPrompt, SYSTEM_PROMPT } from './prompt.js';
import { MAX_DECISIONS } from './protocol.js';
import type { DragonCallRecord, DragonGameRecord, DragonRecord } from './records.js';
import { type DecisionInput, GameSession, gameUnitKey } from './session.js';

/** Records of this game: this model, this prompt, this seed. */
function ownRecords(
  prior: readonly SampleRecord[],
  model: string,
  seed: number,
  promptSha256: string,
): DragonRecord[] {
  return prior.filter(
    (r): r is DragonRecord =>
      r.check === 'dragon' &&
      r.model === model &&
      r.game === seed &&
      r.prompt_sha256 === promptSha256 &&
      r.player === undefined,
  );
}

/**
 * The decisions of a game as last played: decision 0, 1, … each its latest record, each
 * written after the one before. A decision logged before its predecessor belongs to an
 * attempt that a replay from an earlier failed move replaced; the chain ends there.
 * `records` are in log order (the sample log's counted order).
 */
export function playedChain(records: readonly DragonRecord[]): DragonCallRecord[] {
  const latest = new Map<number, { record: DragonCallRecord; at: number }>();
  records.forEach((record, at) => {
    if (isCall(record)) latest.set(record.decision, { record, at });
  });
  const chain: DragonCallRecord[] = [];
  let previous = -1;
  for (let i = 0; ; i++) {
    const entry = latest.get(i);
    if (!entry || entry.at < previous) return chain;
    chain.push(entry.record);
    previous = entry.at;
  }
}

function newSession(
  definitions: DragonDefinitions,
  model: string,
  seed: number,
  digest: string | null,
) {
  return new GameSession({
    seed,
    walls: definitions.walls,
    model,
    digest,
    promptSha256: definitions.promptSha256,
    maxConsecutiveInvalid: definitions.maxConsecutiveInvalid,
  });
}

export interface GameRecordsSplit {
  /** The played chain of decisions and, when it ended the game, its game record. */
  kept: DragonRecord[];
  /**
   * Records of today's settings that a later attempt replaced: decisions of an attempt that
   * was continued from an earlier failed move, and its game record once play went on.
   */
  replaced: DragonRecord[];
}

/**
 * The records of this game the current settings would have produced: decisions sent with the
 * same options whose played chain replays through today's maze, and the game record when its
 * fingerprint (which covers the maze's walls) is that of the chain. A game played at another
 * temperature or in another maze is stale (in neither list) and is played again.
 */
export function splitGameRecords(
  records: readonly SampleRecord[],
  definitions: DragonDefinitions,
  model: string,
  seed: number,
  options: RecordedOptions,
): GameRecordsSplit {
  const own = ownRecords(records, model, seed, definitions.promptSha256).filter(
    (r) => r.kind === 'game' || sameRecordedOptions(r.options, options),
  );
  const session = newSession(definitions, model, seed, null);
  const chain: DragonCallRecord[] = [];
  for (const decision of playedChain(own)) {
    if (session.finished) break;
    try {
      session.replay(decision);
    } catch (error) {
      // Outcomes the engine does not reproduce were played in another maze.
      if (error instanceof InputError) return { kept: [], replaced: [] };
      throw error;
    }
    chain.push(decision);
  }
  const fingerprint = session.finished ? session.gameRecord().fingerprint : null;
  const inChain = new Set<DragonRecord>(chain);
  const kept: DragonRecord[] = [];
  const replaced: DragonRecord[] = [];
  own.forEach((r, at) => {
    if (isCall(r)) {
      (inChain.has(r) ? kept : replaced).push(r);
    } else if (r.decisions === session.decisionCount && r.fingerprint === fingerprint) {
      kept.push(r);
    } else if (own.slice(at + 1).some((later) => later.kind === 'call')) {
      // Play went on after this game ended: a rerun continued it from a failed move.
      replaced.push(r);
    }
  });
  return { kept, replaced };
}

/**
 * True when the game is over in `prior` (the runner's records less failed ones): a game
 * record and every decision up to it. A failed move leaves a gap, so the game is replayed up
 * to that move and continued from there.
 */
function gameComplete(own: readonly DragonRecord[]): boolean {
  const game = own.find((r): r is DragonGameRecord => r.kind === 'game');
  return game !== undefined && playedChain(own).length >= game.decisions;
}

/** What the model's answer means for the game. */
export function decisionFrom(outcome: CallOutcome, options: RecordedOptions): DecisionInput {
  const base = {
    latencyMs: outcome.latencyMs,
    attempts: outcome.attempts,
    options,
    reply: replyFields(outcome.response),
  };
  const acting = { move: 'pass' as Move, confidence: null };
  if (outcome.status !== 'ok' || !outcome.response) {
    const status = outcome.status === 'ok' ? 'error' : outcome.status;
    return { ...base, ...acting, status, reason: outcome.reason ?? 'no response' };
  }
  const answer = parseAnswer(outcome.response.content);
  if (!answer.valid) return { ...base, ...acting, status: 'invalid', reason: answer.reason };
  return { ...base, status: 'ok', move: answer.move, confidence: answer.confidence };
}

export function planDragon(
  definitions: DragonDefinitions,
  model: string,
  options: ChatOptions,
): WorkUnit[] {
  const recorded = recordedOptions(options);
  return definitions.seeds.map((seed) => ({
    check: 'dragon',
    model,
    key: gameUnitKey(seed),
    // An upper bound: most games end earlier (a loss, the turn cap, a run of invalid answers).
    expectedCalls: MAX_DECISIONS,
    expected: { promptSha256: definitions.promptSha256, options: recorded },
    estimatedCalls: estimatedDecisions(seed, definitions.walls),
    // The runner narrows `prior` with `current` first (a game record left in it is one of
    // today's settings), then drops failed records: a game with a failed move is incomplete.
    isComplete: (prior) => gameComplete(ownRecords(prior, model, seed, definitions.promptSha256)),
    current: (records) => splitGameRecords(records, definitions, model, seed, recorded).kept,
    replaced: (records) => splitGameRecords(records, definitions, model, seed, recorded).replaced,
    execute: async (ctx: UnitContext) => {
      const session = newSession(definitions, model, seed, ctx.digest);
      const own = ownRecords(ctx.prior, model, seed, definitions.promptSha256);
      if (gameComplete(own)) return;
      // Only the unbroken chain of decisions from 0 is replayed; play goes on from its first
      // gap (a failed move, or a line a kill lost).
      for (const decision of playedChain(own)) {
        if (session.finished) break;
        session.replay(decision);
      }
      while (!session.finished) {
        if (ctx.signal.aborted) return;
        const request: ChatRequest = {
          model,
          messages: [
            { role: 'system', content: SYSTEM_PROMPT },
            { role: 'user', content: renderPrompt(session.observation(), definitions.hints) },
          ],
          format: ANSWER_SCHEMA,
          options,
        };
        const outcome = await ctx.call({ request, promptSha256: definitions.promptSha256 });
        await ctx.emit(session.play(decisionFrom(outcome, recorded)));
      }
      await ctx.emit(session.gameRecord());
    },
  }));
}

const decisionEstimates = new Map<string, number>();

/**
 * The progress estimate of a game's length: the decisions the random reference player makes
 * on this maze (deterministic, played without a model, in milliseconds). A model's game is of
 * that order; the progress total is corrected by the real length when each game ends.
 */
export function estimatedDecisions(seed: number, walls: number): number {
  const key = `${seed}/${walls}`;
  let count = decisionEstimates.get(key);
  if (count === undefined) {
    count = playReferenceGames('random', [seed], walls).filter((r) => isCall(r)).length;
    decisionEstimates.set(key, count);
  }
  return count;
}

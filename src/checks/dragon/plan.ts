/**
 * One work unit per (model, seed): a whole game, its decisions sent one at a time because
 * each depends on the last. Every decision is written to the sample log as soon as it is
 * known; a resumed run replays the logged decisions through the engine and carries on.
 */
import {
  type DragonCallRecord,
  type DragonGameRecord,
  type RecordedOptions,
  recordedOptions,
  sameRecordedOptions,
  type SampleRecord,
} from '../../runner/records.js';
import { InputError } from '../../errors.js';
import type { CallOutcome, UnitContext, WorkUnit } from '../../runner/types.js';
import type { ChatOptions, ChatRequest } from '../../providers/types.js';
import type { DragonDefinitions } from './definitions.js';
import type { Move } from './geometry.js';
import { ANSWER_SCHEMA, parseAnswer, renderPrompt, SYSTEM_PROMPT } from './prompt.js';
import { playReferenceGames } from './players.js';
import { MAX_DECISIONS } from './protocol.js';
import { type DecisionInput, GameSession, gameUnitKey } from './session.js';

/** Records of this game: this model, this prompt, this seed. */
function ownRecords(
  prior: readonly SampleRecord[],
  model: string,
  seed: number,
  promptSha256: string,
): (DragonCallRecord | DragonGameRecord)[] {
  return prior.filter(
    (r): r is DragonCallRecord | DragonGameRecord =>
      r.check === 'dragon' &&
      r.model === model &&
      r.game === seed &&
      r.prompt_sha256 === promptSha256 &&
      r.player === undefined,
  );
}

/**
 * The records of this game the current settings would have produced: decisions sent with the
 * same options that replay from the first one through today's maze, and the game record when
 * its fingerprint (which covers the maze's walls) is that of those decisions. A game played
 * at another temperature or in another maze is stale and is played again.
 */
export function currentGameRecords(
  records: readonly SampleRecord[],
  definitions: DragonDefinitions,
  model: string,
  seed: number,
  options: RecordedOptions,
): (DragonCallRecord | DragonGameRecord)[] {
  const own = ownRecords(records, model, seed, definitions.promptSha256);
  const decisions = new Map<number, DragonCallRecord>();
  for (const r of own) {
    if (
      r.kind === 'call' &&
      !decisions.has(r.decision) &&
      sameRecordedOptions(r.options, options)
    ) {
      decisions.set(r.decision, r);
    }
  }
  const session = new GameSession({
    seed,
    walls: definitions.walls,
    model,
    digest: null,
    promptSha256: definitions.promptSha256,
  });
  const kept: (DragonCallRecord | DragonGameRecord)[] = [];
  for (let i = 0; decisions.has(i) && !session.finished; i++) {
    const decision = decisions.get(i) as DragonCallRecord;
    try {
      session.replay(decision);
    } catch (error) {
      // Outcomes the engine does not reproduce were played in another maze.
      if (error instanceof InputError) return [];
      throw error;
    }
    kept.push(decision);
  }
  const game = own.find((r): r is DragonGameRecord => r.kind === 'game');
  if (
    game &&
    session.finished &&
    game.decisions === session.decisionCount &&
    game.fingerprint === session.gameRecord().fingerprint
  ) {
    kept.push(game);
  }
  return kept;
}

/** What the model's answer means for the game. */
export function decisionFrom(outcome: CallOutcome, options: RecordedOptions): DecisionInput {
  const base = {
    latencyMs: outcome.latencyMs,
    attempts: outcome.attempts,
    options,
    ...(outcome.response?.promptTokens != null
      ? { promptTokens: outcome.response.promptTokens }
      : {}),
    ...(outcome.response?.completionTokens != null
      ? { completionTokens: outcome.response.completionTokens }
      : {}),
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

export function planGames(
  definitions: DragonDefinitions,
  model: string,
  options: ChatOptions,
): WorkUnit[] {
  const recorded = recordedOptions(options);
  return definitions.seeds.map((seed) => ({
    check: 'dragon',
    model,
    key: gameUnitKey(seed),
    // An upper bound: most games end earlier (a loss, or the turn cap).
    expectedCalls: MAX_DECISIONS,
    expected: { promptSha256: definitions.promptSha256, options: recorded },
    estimatedCalls: estimatedDecisions(seed, definitions.walls),
    // The runner narrows `prior` with `current` first (before it drops error records, which
    // a finished game keeps): a game record left in it is one of today's settings.
    isComplete: (prior) =>
      ownRecords(prior, model, seed, definitions.promptSha256).some((r) => r.kind === 'game'),
    current: (records) => currentGameRecords(records, definitions, model, seed, recorded),
    execute: async (ctx: UnitContext) => {
      const session = new GameSession({
        seed,
        walls: definitions.walls,
        model,
        digest: ctx.digest,
        promptSha256: definitions.promptSha256,
      });
      const own = ownRecords(ctx.prior, model, seed, definitions.promptSha256);
      if (own.some((r) => r.kind === 'game')) return;
      const logged = new Map<number, DragonCallRecord>();
      for (const r of own)
        if (r.kind === 'call' && !logged.has(r.decision)) logged.set(r.decision, r);
      // Only the unbroken run of decisions from 0 can be replayed; a gap would mean a lost line.
      for (let i = 0; logged.has(i) && !session.finished; i++) {
        session.replay(logged.get(i) as DragonCallRecord);
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
    count = playReferenceGames('random', [seed], walls).filter((r) => r.kind === 'call').length;
    decisionEstimates.set(key, count);
  }
  return count;
}

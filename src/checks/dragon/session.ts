/**
 * One game turned into sample-log records: each decision played through the engine becomes a
 * DragonCallRecord, the end of the game a DragonGameRecord. Used by model games (plan.ts)
 * and reference players alike, so both produce exactly the same records.
 */
import { createHash } from 'node:crypto';
import { InputError } from '../../errors.js';
import {
  type RecordedOptions,
  type ReplyFields,
  SAMPLE_LOG_VERSION,
  type SampleStatus,
} from '../../sampleLog/index.js';
import { type GameState, newGame, type Observation, observe, playDecision } from './game.js';
import type { Move } from './geometry.js';
import { generateMaze } from './maze.js';
import { PROTOCOL_VERSION } from './protocol.js';
import type { DragonCallRecord, DragonGameRecord, DragonOutcome } from './records.js';

export interface GameIdentity {
  seed: number;
  walls: number;
  model: string;
  digest: string | null;
  promptSha256: string;
  /** Reference player name; absent for a model. */
  player?: string;
  /**
   * The game stops (result `invalid`) after this many invalid answers in a row: a model that
   * never answers validly would otherwise play every game to the cap. Absent: never stops.
   */
  maxConsecutiveInvalid?: number;
}

/** One decision as it came back from a model (or a reference player). */
export interface DecisionInput {
  status: SampleStatus;
  /** Acts as the decision; `pass` whenever the status is not ok. */
  move: Move;
  confidence: number | null;
  reason?: string;
  latencyMs: number;
  attempts: number;
  /** Token counts and timings the server reported (absent fields: not reported). */
  reply?: ReplyFields;
  options: RecordedOptions;
}

export function gameUnitKey(seed: number): string {
  return `dragon/seed-${seed}`;
}

export class GameSession {
  readonly state: GameState;
  private readonly decisions: FingerprintedDecision[] = [];
  private lastTurn = 0;
  private invalidRun = 0;

  constructor(readonly identity: GameIdentity) {
    this.state = newGame(generateMaze(identity.seed, identity.walls));
  }

  get finished(): boolean {
    return this.state.result !== null;
  }

  get decisionCount(): number {
    return this.decisions.length;
  }

  observation(): Observation {
    return observe(this.state);
  }

  /** Plays one decision and returns its record. */
  play(input: DecisionInput): DragonCallRecord {
    const ok = input.status === 'ok';
    const move: Move = ok ? input.move : 'pass';
    const confidence = ok ? input.confidence : null;
    const decision = this.decisions.length;
    const turn = this.state.turn;
    const report = playDecision(this.state, move);
    this.lastTurn = turn;
    // Timeouts and server errors are the server's, not the model's: they neither count nor reset.
    if (input.status === 'invalid') this.invalidRun++;
    else if (ok) this.invalidRun = 0;
    const limit = this.identity.maxConsecutiveInvalid;
    if (!this.state.result && limit !== undefined && this.invalidRun >= limit) {
      this.state.result = 'invalid';
    }
    const caught = report.caught ?? undefined;
    this.decisions.push({ move, confidence, outcome: report.outcome, caught });
    const { identity } = this;
    return {
      v: SAMPLE_LOG_VERSION,
      kind: 'call',
      check: 'dragon',
      model: identity.model,
      digest: identity.digest,
      key: `${gameUnitKey(identity.seed)}/decision-${decision}`,
      sample: 0,
      options: input.options,
      prompt_sha256: identity.promptSha256,
      status: input.status,
      ...(input.reason !== undefined ? { reason: input.reason } : {}),
      latency_ms: input.latencyMs,
      ...input.reply,
      attempts: input.attempts,
      game: identity.seed,
      decision,
      turn,
      move,
      confidence,
      outcome: report.outcome,
      ...(caught ? { caught } : {}),
      ...(identity.player !== undefined ? { player: identity.player } : {}),
    };
  }

  /**
   * Plays a decision read back from the sample log (resume). The engine must agree with what
   * was recorded; if not, the log was written under other rules or another maze.
   */
  replay(record: DragonCallRecord): void {
    // Only the outcome is compared, so the record's own fields serve as the decision.
    const replayed = this.play({ ...record, latencyMs: record.latency_ms });
    if (replayed.outcome !== record.outcome || replayed.caught !== record.caught) {
      throw new InputError(
        `sample log: dragon game seed ${record.game}, decision ${record.decision} of ${record.model} was recorded as "${record.outcome}" but replays as "${replayed.outcome}"; the log was written with another maze (check dragon.walls) or another protocol version`,
      );
    }
  }

  gameRecord(): DragonGameRecord {
    const { identity, state } = this;
    if (!state.result) throw new Error('gameRecord: the game is not over');
    return {
      v: SAMPLE_LOG_VERSION,
      kind: 'game',
      check: 'dragon',
      model: identity.model,
      digest: identity.digest,
      key: `${gameUnitKey(identity.seed)}/game`,
      game: identity.seed,
      prompt_sha256: identity.promptSha256,
      result: state.result,
      capped: state.result === 'capped',
      turns: this.lastTurn,
      decisions: this.decisions.length,
      cells_visited: state.visited.size,
      treasure_found: state.treasureFound,
      wounds: state.wounds,
      fingerprint: gameFingerprint(identity.seed, identity.walls, this.decisions),
      ...(identity.player !== undefined ? { player: identity.player } : {}),
    };
  }
}

/**
 * Proof fingerprint of a game: SHA-256 (hex) of the UTF-8 text
 *
 *   dragon-calibration/1\n
 *   seed=<seed> walls=<walls>\n
 *   then one line per decision, in order: <move> <confidence|null> <outcome>[ caught:<wounded|killed>]\n
 *
 * Confidence is written as JavaScript's shortest round-trip decimal (String(0.8) = "0.8").
 * Two runs that made the same decisions with the same stated confidences in the same maze
 * have the same fingerprint; any difference in one decision changes it.
 */
export interface FingerprintedDecision {
  move: Move;
  confidence: number | null;
  outcome: DragonOutcome;
  caught?: 'wounded' | 'killed' | null;
}

export function gameFingerprint(
  seed: number,
  walls: number,
  decisions: readonly FingerprintedDecision[],
): string {
  const hash = createHash('sha256').update(`${PROTOCOL_VERSION}\nseed=${seed} walls=${walls}\n`);
  for (const d of decisions) {
    const caught = d.caught ? ` caught:${d.caught}` : '';
    hash.update(
      `${d.move} ${d.confidence === null ? 'null' : String(d.confidence)} ${d.outcome}${caught}\n`,
    );
  }
  return hash.digest('hex');
}

/** What the dragon check runs: the protocol, the mazes and the prompt, fixed before any call. */
import { seedFromText } from '../../stats/prng.js';
import type { ReferencePlayer } from './players.js';
import { type HintsVariant, PROMPT_VERSION, promptSha256 } from './prompt.js';
import { PROTOCOL_VERSION } from './protocol.js';
import type { DragonSettings } from './settings.js';

export interface DragonDefinitions {
  protocol: string;
  seeds: number[];
  walls: number;
  hints: HintsVariant;
  promptVersion: string;
  promptSha256: string;
  referencePlayers: ReferencePlayer[];
  bootstrapReplicates: number;
  /** Invalid answers in a row that stop a game. */
  maxConsecutiveInvalid: number;
  bootstrapSeed: number;
  /** Timeouts above this share of calls mark a series perturbed. */
  maxTimeoutShare: number;
  /** False-alarm rate allotted to each failing rule (rules.ts). */
  ruleFalseAlarmRate: number;
  /** The gate's allowed ECE rise: the section states the smallest rise detected beyond it. */
  maxEceIncrease: number;
}

/** The bootstrap is seeded by a fixed text so every report of the protocol draws the same. */
export const BOOTSTRAP_SEED = seedFromText(`${PROTOCOL_VERSION}/ece-bootstrap`);

/** The default budget (5%) split between three checks, then between two failing rules. */
export const DEFAULT_RULE_FALSE_ALARM_RATE = 0.05 / 3 / 2;

export function dragonDefinitions(
  settings: DragonSettings,
  ruleFalseAlarmRate: number = DEFAULT_RULE_FALSE_ALARM_RATE,
): DragonDefinitions {
  return {
    protocol: PROTOCOL_VERSION,
    seeds: [...settings.seeds],
    walls: settings.walls,
    hints: settings.hints,
    promptVersion: PROMPT_VERSION,
    promptSha256: promptSha256(settings.hints),
    referencePlayers: [...settings.referencePlayers],
    bootstrapReplicates: settings.bootstrap,
    maxConsecutiveInvalid: settings.maxConsecutiveInvalid,
    bootstrapSeed: BOOTSTRAP_SEED,
    maxTimeoutShare: settings.gate.maxTimeoutShare,
    ruleFalseAlarmRate,
    maxEceIncrease: settings.gate.maxEceIncrease,
  };
}

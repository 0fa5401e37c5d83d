/**
 * The dragon check's records in the sample log: one call record per decision of a game and one
 * `kind: "game"` record per finished game (see docs/sample-log.md). The registry hands this
 * format to the sample log.
 */
import { z } from 'zod';
import type { RecordFormat } from '../../sampleLog/formats.js';
import {
  callRecordFields,
  countField,
  recordVersion,
  type SampleRecord,
  shareField,
  wholeField,
} from '../../sampleLog/index.js';

const dragonOutcome = z.enum([
  'moved',
  'wall',
  'known_wall',
  'pass',
  'treasure',
  'wounded',
  'won',
  'killed',
]);
export type DragonOutcome = z.infer<typeof dragonOutcome>;

const dragonCallSchema = z.object({
  ...callRecordFields,
  check: z.literal('dragon'),
  game: wholeField(),
  decision: countField(),
  turn: countField(),
  move: z.enum(['up', 'down', 'left', 'right', 'pass']),
  /** Stated confidence; null when invalid/timeout (the decision then acts as pass). */
  confidence: shareField().nullable(),
  outcome: dragonOutcome,
  /**
   * The awake dragon reached the player after the turn this decision ended (`outcome` keeps
   * what the step itself did, so a wall bump stays a wall bump for calibration).
   */
  caught: z.enum(['wounded', 'killed']).optional(),
  /** Reference player name instead of a model, when the record comes from one. */
  player: z.string().optional(),
});
export type DragonCallRecord = z.infer<typeof dragonCallSchema>;

const dragonGameSchema = z.object({
  v: recordVersion,
  kind: z.literal('game'),
  check: z.literal('dragon'),
  model: z.string(),
  digest: z.string().nullable(),
  key: z.string(),
  game: wholeField(),
  prompt_sha256: z.string(),
  /** `invalid`: stopped after `dragon.max-consecutive-invalid` invalid answers in a row. */
  result: z.enum(['won', 'lost', 'capped', 'invalid']),
  capped: z.boolean(),
  turns: countField(),
  decisions: countField(),
  cells_visited: countField(),
  treasure_found: z.boolean(),
  wounds: countField(),
  fingerprint: z.string(),
  player: z.string().optional(),
});
export type DragonGameRecord = z.infer<typeof dragonGameSchema>;
/** A record the dragon check writes: one per move, one per finished game. */
export type DragonRecord = DragonCallRecord | DragonGameRecord;

/** True for the dragon check's records: the one place a record of the log is taken as its. */
export function isDragonRecord(record: SampleRecord): record is DragonRecord {
  return record.check === 'dragon';
}

/** True for one of the dragon check's moves. */
export function isDragonCall(record: SampleRecord): record is DragonCallRecord {
  return record.kind === 'call' && record.check === 'dragon';
}

export const dragonRecords: RecordFormat = {
  kinds: { call: dragonCallSchema, game: dragonGameSchema },
  okAnswer: z.object({ confidence: z.number() }),
};

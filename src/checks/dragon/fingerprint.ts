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
import { createHash } from 'node:crypto';
import type { Move } from './geometry.js';
import { PROTOCOL_VERSION } from './protocol.js';
import type { DragonOutcome } from './records.js';

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

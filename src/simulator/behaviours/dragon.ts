/**
 * Simulated players for the dragon check. The behaviour reads the situation from the prompt
 * (as a model would), picks a move by its policy and states a confidence; draws are seeded by
 * (model, prompt, seed option), so the same request always gets the same answer.
 *
 *   dragon:
 *     policy: careful          # careful | overconfident | wall-bumper
 *     invalid-rate: 0.02       # share of answers that are not valid JSON answers (default 0)
 *     confidence: 0.95         # stated confidence of overconfident / wall-bumper (0.95 / 0.9)
 *     repeat-rate: 0.8         # wall-bumper: chance to walk into a wall it already knows
 *     walls: 40                # careful: the maze setting its stated probabilities assume
 *
 * careful never walks into a known wall and states the protocol's probabilities (it is the
 * `careful` reference player reading the prompt); overconfident picks any direction at 0.95;
 * wall-bumper keeps walking into walls it was told about.
 */
import { z } from 'zod';
import { DIRECTIONS, type Direction } from '../../checks/dragon/geometry.js';
import { referenceAnswer } from '../../checks/dragon/players.js';
import { readPrompt } from '../../checks/dragon/prompt.js';
import { DEFAULT_WALLS, MAX_WALLS } from '../../checks/dragon/protocol.js';
import { createRng, seedFromText } from '../../stats/prng.js';
import type { Behaviour, SimulatedChat } from '../behaviour.js';
import { parseBehaviourParams } from '../behaviourParams.js';

const paramsSchema = z
  .object({
    policy: z.enum(['careful', 'overconfident', 'wall-bumper']).default('careful'),
    'invalid-rate': z.number().min(0).max(1).default(0),
    confidence: z.number().min(0).max(1).optional(),
    'repeat-rate': z.number().min(0).max(1).default(0.8),
    walls: z.number().int().min(0).max(MAX_WALLS).default(DEFAULT_WALLS),
  })
  .strict();

export type DragonPolicyParams = z.infer<typeof paramsSchema>;

/** What a model that ignores the schema might send. */
const INVALID_ANSWERS = [
  '{"move": "forward", "confidence": 0.9}',
  '{"move": "up", "confidence": 1.7}',
  'I will go up, I am quite sure.',
  '{"move": "left"',
];

function parseParams(params: unknown): DragonPolicyParams {
  return parseBehaviourParams(paramsSchema, 'dragon', params);
}

export const dragonBehaviour: Behaviour = {
  name: 'dragon',
  validate: parseParams,
  answer(chat: SimulatedChat, params: unknown): string | null {
    const reading = readPrompt(chat.user);
    if (!reading) return null;
    const settings = parseParams(params);
    const rng = createRng(seedFromText(`${chat.model}\n${chat.user}\n${chat.seed}`));
    if (rng.next() < settings['invalid-rate']) {
      return INVALID_ANSWERS[rng.int(INVALID_ANSWERS.length)] as string;
    }
    if (settings.policy !== 'wall-bumper') {
      // The check's reference players read the prompt; overconfident may state its own confidence.
      const answer = referenceAnswer(settings.policy, reading, rng, settings.walls);
      const stated = settings.policy === 'overconfident' ? settings.confidence : undefined;
      return JSON.stringify({ move: answer.move, confidence: stated ?? answer.confidence });
    }
    const known = reading.blockedHere;
    const move =
      known.length > 0 && rng.next() < settings['repeat-rate']
        ? (known[rng.int(known.length)] as Direction)
        : (DIRECTIONS[rng.int(DIRECTIONS.length)] as Direction);
    return JSON.stringify({ move, confidence: settings.confidence ?? 0.9 });
  },
};

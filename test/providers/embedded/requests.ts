/**
 * Requests shaped like the three checks' requests (answer schemas as the checks send them),
 * shared by the embedded-provider tests and the child process they compare against.
 */
import { letterProbabilities } from '../../../src/checks/churn/logprobs/letterProbabilities.js';
import type { EmbeddedProvider } from '../../../src/providers/embedded/provider.js';
import type { ChatRequest, JsonSchema } from '../../../src/providers/types.js';

export const LETTERS = ['A', 'B', 'C', 'D'];

export const letterSchema: JsonSchema = {
  type: 'object',
  properties: { answer: { type: 'string', enum: LETTERS } },
  required: ['answer'],
};

export const moveSchema: JsonSchema = {
  type: 'object',
  properties: {
    move: { type: 'string', enum: ['up', 'down', 'left', 'right', 'pass'] },
    confidence: { type: 'number', minimum: 0, maximum: 1 },
  },
  required: ['move', 'confidence'],
};

function options(temperature: number, seed: number, numPredict: number): ChatRequest['options'] {
  return { temperature, seed, numCtx: 1024, numPredict, think: false };
}

export function letterRequest(
  model: string,
  temperature: number,
  seed: number,
  question = 'Which word is a verb?',
): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'Answer with the letter of the correct choice.' },
      { role: 'user', content: `${question}\nA) one\nB) two\nC) three\nD) four` },
    ],
    format: letterSchema,
    options: options(temperature, seed, 32),
  };
}

export function moveRequest(
  model: string,
  temperature: number,
  seed: number,
  turn: number,
): ChatRequest {
  return {
    model,
    messages: [
      {
        role: 'system',
        content: 'You explore an 8x8 maze. Reply with a move and your confidence that it is free.',
      },
      {
        role: 'user',
        content: `Turn ${turn}. Position row 3, column 4. Walls known: none. Steps left: 8.`,
      },
    ],
    format: moveSchema,
    options: options(temperature, seed, 64),
  };
}

export function personaRequest(model: string, temperature: number, seed: number): ChatRequest {
  return {
    model,
    messages: [
      { role: 'system', content: 'You are a writing coach who helps with story structure.' },
      { role: 'user', content: 'My story starts slowly. What should I do?' },
    ],
    options: options(temperature, seed, 24),
  };
}

/** What answerInChild.ts asks, in order: the test asks the same in its own process. */
export function childRequests(model: string): ChatRequest[] {
  return [
    letterRequest(model, 0, 42),
    moveRequest(model, 0, 42, 1),
    moveRequest(model, 0.7, 9, 2),
    personaRequest(model, 0, 7),
  ];
}

/**
 * The letter probabilities at the answer position of a letter request, at its temperature:
 * what the exact churn estimator reads from one evaluation of the prompt.
 */
export async function letterDistribution(
  provider: EmbeddedProvider,
  request: ChatRequest,
  letters: readonly string[] = LETTERS,
): Promise<Record<string, number> | null> {
  const position = await provider.answerDistribution(request);
  return letterProbabilities(
    { lead: '', candidates: position.candidates },
    letters,
    request.options.temperature,
  );
}

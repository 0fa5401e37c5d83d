/**
 * How the simulator decides what a scripted model says. The HTTP server (server.ts) knows
 * nothing about checks: it hands each chat to the behaviours of the model's scenario entry,
 * and the first one that recognises the prompt answers.
 */
import type { JsonSchema } from '../providers/types.js';

/** A chat as the simulator received it, whatever endpoint it came through. */
export interface SimulatedChat {
  model: string;
  system: string | null;
  /** The last user message. */
  user: string;
  format: JsonSchema | null;
  temperature: number;
  seed: number;
}

export interface Behaviour {
  /** Scenario key whose block configures this behaviour, e.g. "churn". */
  readonly name: string;
  /**
   * The content the model answers, or null when the prompt is not this behaviour's.
   * `params` is the model's scenario block for this behaviour (validated by the behaviour,
   * which throws an Error naming the field when it is wrong). Must be a pure function of its
   * arguments: the same chat and params give the same answer (seeded draws only).
   */
  answer(chat: SimulatedChat, params: unknown): string | null;
  /**
   * Optional early check of a scenario block, called once when the scenario is loaded so a
   * wrong block is reported with its file and model before any request. Throws an Error whose
   * message names the field and what was expected.
   */
  validate?(params: unknown): void;
  /**
   * Optional: where the behaviour's choice stands in `content` (an answer it gave for this
   * chat) and the log-probability, at temperature 1, of every text that could stand there.
   * The simulator returns it as token logprobs when a request asks for them. Null when
   * `content` holds no choice of this behaviour.
   */
  choiceLogprobs?(chat: SimulatedChat, params: unknown, content: string): ChoiceLogprobs | null;
}

export interface ChoiceLogprobs {
  /** Character offset in the answer where the choice begins. */
  offset: number;
  /** Natural log of the probability of each alternative text at that point. */
  alternatives: Record<string, number>;
}

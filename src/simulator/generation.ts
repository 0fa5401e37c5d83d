/**
 * The part of a generation request every endpoint shares: find the model, apply faults that
 * refuse the request, wait for a slot, decide the answer and how long it takes. The endpoint
 * modules only translate requests and replies to their wire formats.
 */
import { createHash } from 'node:crypto';
import type { TokenLogprob } from '../providers/types.js';
import type { Behaviour, SimulatedChat } from './behaviour.js';
import { activeFaults } from './faults.js';
import { genericAnswer } from './genericAnswer.js';
import { simulatedLogprobs, versionHasLogprobs } from './logprobs.js';
import type { Fault, Scenario, SimulatedModel } from './scenario.js';
import { normaliseModelName } from './scenario.js';
import { QueueFull, type Slots } from './slots.js';
import { padAnswer, type ReplyTiming, type ServerClock, timeRequest } from './timing.js';

export interface GenerationRequest {
  chat: SimulatedChat;
  think: boolean;
  numPredict: number | null;
  numCtx: number | null;
  /** Token log-probabilities asked (Ollama `logprobs`), with `top` alternatives per token. */
  logprobs?: { top: number } | null;
}

export interface Generation {
  model: SimulatedModel;
  content: string;
  thinking: string | null;
  doneReason: 'stop' | 'length';
  promptTokens: number;
  completionTokens: number;
  /** Time the answer takes to generate once a slot is held. */
  latencyMs: number;
  /** Time before the first token, on top of `latencyMs` (a sleeping model's prompt). */
  promptMs: number;
  /** Time before the response headers, on top of the queue and generation time. */
  headerDelayMs: number;
  /** Time the request waits for its model to load, before its headers. */
  loadMs: number;
  /** Durations the reply reports (set once the request holds a slot; zero before). */
  timing: ReplyTiming;
  /** Seeds the modelled noise: identical retries of a request differ by their attempt. */
  noiseKey: string;
  faults: Fault[];
  /** Token log-probabilities of `content`, when asked and the simulated version has them. */
  logprobs: TokenLogprob[] | null;
}

/** A refusal the endpoint turns into its own error shape. */
export class SimulatedHttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface SimulatorState {
  scenario: Scenario;
  behaviours: readonly Behaviour[];
  slots: Slots;
  /** Models in memory, most recently used first. */
  loaded: string[];
  /** num_ctx each loaded model was loaded with (a change reloads, as in Ollama). */
  loadedContext: Map<string, number | null>;
  arrivals: Map<string, number>;
  attempts: Map<string, number>;
  /** How far the run has gone, for models whose speed drifts. */
  clock: ServerClock;
  /** OpenAI completions answered so far: each reply's id. */
  completions: number;
  stats: SimulatorStats;
}

export interface SimulatorStats {
  /** Generation requests per model (refused ones included). */
  requests: Record<string, number>;
  /** Model of each generation request that got a slot, in the order they got it. */
  order: string[];
  /** Times a model had to be loaded: first use, switch, or a num_ctx change. */
  loads: number;
  /** Most requests generating at once. */
  maxInFlight: number;
  /** Models freed by an unload request (keep_alive 0), in order. */
  unloads: string[];
}

export function findModel(state: SimulatorState, name: string): SimulatedModel | null {
  const wanted = normaliseModelName(name);
  return state.scenario.models.find((m) => m.name === wanted) ?? null;
}

/** Checks the request and applies refusing faults. Throws SimulatedHttpError. */
export function admit(state: SimulatorState, request: GenerationRequest): Generation {
  const model = findModel(state, request.chat.model);
  if (!model) {
    throw new SimulatedHttpError(404, `model '${request.chat.model}' not found`);
  }
  state.stats.requests[model.name] = (state.stats.requests[model.name] ?? 0) + 1;
  if (request.think && !model.thinking) {
    throw new SimulatedHttpError(400, `"${request.chat.model}" does not support thinking`);
  }
  const requestHash = createHash('sha256')
    .update(JSON.stringify([model.name, request]))
    .digest('hex');
  const arrival = (state.arrivals.get(model.name) ?? 0) + 1;
  state.arrivals.set(model.name, arrival);
  const attempt = (state.attempts.get(requestHash) ?? 0) + 1;
  state.attempts.set(requestHash, attempt);
  const faults = activeFaults(
    model.faults,
    { model: model.name, requestHash, arrival, attempt },
    state.scenario.seed,
  );
  const refusal = faults.find((f) => f.kind === 'status');
  if (refusal?.kind === 'status') {
    throw new SimulatedHttpError(refusal.status, refusal.message ?? FAULT_MESSAGES[refusal.status]);
  }

  const answered = answerFor(state, model, request.chat);
  let content = answered.content;
  let thinking = request.think
    ? `Simulated reasoning about: ${request.chat.user.slice(0, 60)}`
    : null;
  let doneReason: 'stop' | 'length' = 'stop';
  if (faults.some((f) => f.kind === 'thinking-only')) {
    thinking = 'Simulated reasoning that used the whole token budget before answering.';
    content = '';
    doneReason = 'length';
  } else {
    const budget =
      request.numPredict !== null && request.numPredict > 0 ? request.numPredict * 4 : null;
    if (budget !== null && content.length > budget) {
      content = content.slice(0, budget);
      doneReason = 'length';
    }
    content = padAnswer(content, model.timing?.lengthFactor ?? 1, budget);
  }
  let latencyMs = model.latencyMs;
  let headerDelayMs = 0;
  for (const fault of faults) {
    if (fault.kind === 'latency') latencyMs += fault.ms;
    if (fault.kind === 'slow-headers') headerDelayMs += fault.ms;
  }
  let logprobs: TokenLogprob[] | null = null;
  if (request.logprobs && versionHasLogprobs(state.scenario.version)) {
    const choice =
      answered.behaviour?.choiceLogprobs?.(request.chat, answered.params, content) ?? null;
    logprobs = simulatedLogprobs(content, choice, request.logprobs.top);
  }
  return {
    model,
    content,
    thinking,
    logprobs,
    doneReason,
    promptTokens: estimateTokens(`${request.chat.system ?? ''} ${request.chat.user}`),
    // Ollama counts reasoning in eval_count; a timed model does too, older scenarios did not.
    completionTokens:
      estimateTokens(content) + (model.timing && thinking !== null ? estimateTokens(thinking) : 0),
    latencyMs,
    promptMs: 0,
    headerDelayMs,
    loadMs: 0,
    timing: { loadNs: 0, promptNs: 0, evalNs: 0, totalNs: 0 },
    noiseKey: `${state.scenario.seed}|${requestHash}|${attempt}`,
    faults,
  };
}

/**
 * The request has its slot: load its model if needed and fix how long the reply takes and
 * reports. Without a timing block, as before speed was modelled: the durations split latency-ms
 * 20/80 between prompt and answer, and the load is the scenario's load-ms, waited and reported.
 */
export function startGeneration(
  state: SimulatorState,
  generation: Generation,
  numCtx: number | null,
): Generation {
  const loaded = useModel(state, generation.model.name, numCtx);
  const scenarioLoadMs = loaded ? state.scenario.loadMs : 0;
  const params = generation.model.timing;
  if (params === null) {
    const ns = (ms: number): number => Math.round(ms * 1e6);
    const evalShare = 0.8;
    const latency = generation.latencyMs;
    return {
      ...generation,
      loadMs: scenarioLoadMs,
      timing: {
        loadNs: ns(scenarioLoadMs),
        promptNs: ns(latency * (1 - evalShare)),
        evalNs: ns(latency * evalShare),
        totalNs: ns(latency + scenarioLoadMs),
      },
    };
  }
  const timing = timeRequest(
    {
      params,
      promptTokens: generation.promptTokens,
      completionTokens: generation.completionTokens,
      loaded,
      scenarioLoadMs: state.scenario.loadMs,
      noiseKey: generation.noiseKey,
    },
    state.clock,
    state.scenario.parallel,
  );
  if (!params.sleep) return { ...generation, loadMs: scenarioLoadMs, timing };
  // Faults' extra latency comes on top of the modelled decoding time; a stream's first token
  // comes once the prompt is read.
  return {
    ...generation,
    loadMs: timing.loadNs / 1e6,
    promptMs: timing.promptNs / 1e6,
    latencyMs: generation.latencyMs - generation.model.latencyMs + timing.evalNs / 1e6,
    timing,
  };
}

/** Marks the model loaded (evicting the oldest beyond max-loaded); true when it had to load. */
function useModel(state: SimulatorState, model: string, numCtx: number | null): boolean {
  const wasLoaded = state.loaded.includes(model);
  const context = state.loadedContext.get(model);
  const reload = !wasLoaded || (numCtx !== null && context !== undefined && context !== numCtx);
  state.loaded = [model, ...state.loaded.filter((m) => m !== model)];
  for (const evicted of state.loaded.splice(state.scenario.maxLoaded)) {
    state.loadedContext.delete(evicted);
  }
  if (numCtx !== null || !state.loadedContext.has(model)) state.loadedContext.set(model, numCtx);
  state.stats.order.push(model);
  if (reload) state.stats.loads++;
  return reload;
}

/** The answer, and the behaviour that gave it with its block (null for the generic answer). */
function answerFor(
  state: SimulatorState,
  model: SimulatedModel,
  chat: SimulatedChat,
): { content: string; behaviour: Behaviour | null; params: unknown } {
  for (const behaviour of state.behaviours) {
    if (!(behaviour.name in model.behaviours)) continue;
    const params = model.behaviours[behaviour.name];
    const answer = behaviour.answer(chat, params);
    if (answer !== null) return { content: answer, behaviour, params };
  }
  return { content: genericAnswer(chat), behaviour: null, params: null };
}

/** What a refusing fault says when its scenario gives no message. */
const FAULT_MESSAGES: Record<Extract<Fault, { kind: 'status' }>['status'], string> = {
  400: 'invalid request (simulated fault)',
  404: 'model not found (simulated fault)',
  500: 'llama runner process has terminated (simulated fault)',
  503: new QueueFull().message,
};

function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/**
 * The one interface every model server is reached through. Checks and the runner never see
 * a client library; they see ChatRequest → ChatResponse and typed failures.
 */
import type { ProviderKind } from '../config/schema.js';
import { neutralise } from '../text/neutralise.js';
import { scrubSecrets } from '../text/secrets.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/** A JSON Schema object constraining the answer (Ollama `format`, OpenAI `response_format`). */
export type JsonSchema = { [key: string]: unknown };

/** Options actually sent; recorded verbatim in the sample log. */
export interface ChatOptions {
  temperature: number;
  seed: number;
  /** Context length; pinned for a whole run so the server never reloads the model. */
  numCtx: number;
  /** Token budget for the answer (Ollama num_predict, OpenAI max_tokens). */
  numPredict: number;
  think: boolean;
}

export interface ChatRequest {
  model: string;
  messages: ChatMessage[];
  /** JSON schema of the expected answer; absent for free text (personas). */
  format?: JsonSchema;
  options: ChatOptions;
  /**
   * Ask for the probability of every token that can start the answer (the exact churn
   * estimator). Ollama adds token log-probabilities to its reply (`logprobs`, with the `top`
   * most likely alternatives of each token; at most 20); the embedded provider returns the
   * whole next-token distribution after the fixed start of the answer and generates nothing
   * (`answerDistribution`). A provider without the capability ignores it.
   */
  answerProbabilities?: { top: number };
}

/** Where a provider reads answer probabilities from, when it can. */
export type AnswerProbabilitySource = 'embedded-logits' | 'ollama-logprobs';

/** Provider kinds that honour `answerProbabilities`, and how; null where it cannot. */
export const ANSWER_PROBABILITY_SOURCES: Readonly<
  Record<ServerInfo['provider'], AnswerProbabilitySource | null>
> = {
  embedded: 'embedded-logits',
  // Ollama returns token log-probabilities from server version 0.12.11 on.
  ollama: 'ollama-logprobs',
  openai: null,
};

/** One generated token with its natural-log probability and, when asked, its alternatives. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  top_logprobs?: { token: string; logprob: number }[];
}

import type { ServerTimings } from './timings.js';

export interface ChatResponse {
  content: string;
  /** Reasoning text when the server returned it separately; null otherwise. */
  thinking: string | null;
  /** 'stop' | 'length' | 'load' | 'unload' | …; null when the server did not say. */
  doneReason: string | null;
  promptTokens: number | null;
  completionTokens: number | null;
  /** Wall-clock time of the request as seen by the client. */
  latencyMs: number;
  /** What the server reported of its own timing (absent: it reported nothing usable). */
  timings?: ServerTimings;
  /** Token log-probabilities of `content` (Ollama, when `answerProbabilities` was asked). */
  logprobs?: TokenLogprob[];
  /**
   * Probabilities (natural logs) of the tokens that can follow `prefix`, the fixed start of
   * the answer (embedded provider, when `answerProbabilities` was asked).
   */
  answerDistribution?: { prefix: string; candidates: { text: string; logprob: number }[] };
}

/** What the server says about a model. Unknown is null, never invented. */
export interface ModelMetadata {
  model: string;
  digest: string | null;
  quantization: string | null;
  parameterSize: string | null;
  family: string | null;
  /** True when the server is the built-in simulator (every output says so). */
  simulated: boolean;
}

export interface ServerInfo {
  provider: ProviderKind;
  host: string;
  version: string | null;
  simulated: boolean;
}

/** What the server held when a model's series started, and what the runner did about it. */
export interface SeriesHygiene {
  model: string;
  /** Models loaded before the series other than its own; null when the server does not say. */
  othersLoaded: string[] | null;
  /** Of those, models that are not part of this run (another user's, another job's). */
  foreign: string[];
  /** Models unloaded before the series (runner.unload-others). */
  unloaded: string[];
  /** Context length the server reports for the model during its series; null when unknown. */
  contextLength: number | null;
}

export type ProviderFailureKind =
  | 'model-missing'
  | 'unreachable'
  | 'connection-reset'
  | 'timeout'
  | 'busy'
  | 'server-error'
  | 'bad-request'
  /** The answer passed runner.max-reply-bytes: the model ran away; recorded `invalid`. */
  | 'too-long'
  | 'cancelled';

/** A request that did not produce a response, classified so the runner can decide. */
const MESSAGE_LIMIT = 500;

export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly status: number | null = null,
    /** With `model-missing`: the models the server (or store) does have, when it listed them. */
    readonly served: readonly string[] | null = null,
  ) {
    // The message often quotes the server (an error body): it is recorded in the sample log
    // and shown everywhere, so it is made safe and short once, here — masked first: a secret
    // the cut went through would no longer be found whole.
    super(neutralise(scrubSecrets(message), MESSAGE_LIMIT));
    this.name = 'ProviderFailure';
  }

  /** Worth one more try: the request may succeed if sent again. */
  get retryable(): boolean {
    return this.kind === 'timeout' || this.kind === 'connection-reset' || this.kind === 'busy';
  }
}

export interface Provider {
  readonly info: ServerInfo;
  /**
   * Throws ProviderFailure; never returns a partial response. `timeoutMs` overrides the
   * provider's per-request limit for this call (the runner's warm-up allows for a model load).
   */
  chat(request: ChatRequest, signal?: AbortSignal, timeoutMs?: number): Promise<ChatResponse>;
  /*
   * The other calls take a `signal` too: aborting it ends a request that waits on the server
   * (a cancelled run must not wait out a silent server's timeout), as a `cancelled` failure.
   */
  describe(model: string, signal?: AbortSignal): Promise<ModelMetadata>;
  /** Server version; null when the server does not expose one. */
  version(signal?: AbortSignal): Promise<string | null>;
  /** Models loaded in memory right now (Ollama /api/ps); null when unknown. */
  loadedModels(signal?: AbortSignal): Promise<string[] | null>;
  /** Embedding vectors (personas `vectors: embed`). */
  embed(model: string, texts: string[], signal?: AbortSignal): Promise<number[][]>;
  /** Loaded models with what the server says of each (Ollama /api/ps); absent: unknown. */
  running?(signal?: AbortSignal): Promise<RunningModel[]>;
  /** Frees a loaded model (Ollama: a generate request with keep_alive 0). */
  unloadModel?(model: string, signal?: AbortSignal): Promise<void>;
}

/**
 * `provider` with `signal` passed to every call that is not given one: the run's stop signal
 * reaches each request the runner makes, metadata calls included, from one place.
 */
export function boundToSignal(provider: Provider, signal: AbortSignal): Provider {
  const { running, unloadModel } = provider;
  return {
    info: provider.info,
    chat: (request, own, timeoutMs) => provider.chat(request, own ?? signal, timeoutMs),
    describe: (model, own) => provider.describe(model, own ?? signal),
    version: (own) => provider.version(own ?? signal),
    loadedModels: (own) => provider.loadedModels(own ?? signal),
    embed: (model, texts, own) => provider.embed(model, texts, own ?? signal),
    ...(running ? { running: (own) => running.call(provider, own ?? signal) } : {}),
    ...(unloadModel
      ? { unloadModel: (model, own) => unloadModel.call(provider, model, own ?? signal) }
      : {}),
  };
}

/** A model in the server's memory, as /api/ps describes it. Unknown is null. */
export interface RunningModel {
  name: string;
  digest: string | null;
  /** Context length the model was loaded with. */
  contextLength: number | null;
  /** Bytes of the model in GPU memory. */
  sizeVram: number | null;
  /** Bytes of the model in memory, GPU and system together. */
  size?: number | null;
}

/**
 * The one interface every model server is reached through. Checks and the runner never see
 * a client library; they see ChatRequest → ChatResponse and typed failures.
 */

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
}

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
  provider: 'ollama' | 'openai' | 'embedded';
  host: string;
  version: string | null;
  simulated: boolean;
}

export type ProviderFailureKind =
  | 'model-missing'
  | 'unreachable'
  | 'connection-reset'
  | 'timeout'
  | 'busy'
  | 'server-error'
  | 'bad-request'
  | 'cancelled';

/** A request that did not produce a response, classified so the runner can decide. */
export class ProviderFailure extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly status: number | null = null,
  ) {
    super(message);
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
  describe(model: string): Promise<ModelMetadata>;
  /** Server version; null when the server does not expose one. */
  version(): Promise<string | null>;
  /** Models loaded in memory right now (Ollama /api/ps); null when unknown. */
  loadedModels(): Promise<string[] | null>;
  /** Embedding vectors (personas `vectors: embed`). */
  embed(model: string, texts: string[]): Promise<number[][]>;
}

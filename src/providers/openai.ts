/**
 * OpenAI-compatible servers (vLLM, llama.cpp server, LM Studio, Ollama's /v1) through the
 * `openai` client. These servers do not publish a model digest or quantization: describe()
 * reports them as unknown (null). The client's own retries are off (the runner retries) and
 * its timeout only covers the headers, so the deadline signal bounds the whole request.
 * There is no portable way to switch thinking on or off through this API; `think` is
 * recorded but not sent.
 */
import OpenAI from 'openai';
import { splitHostQuery } from '../config/hostUrl.js';
import { countOrNull } from './counts.js';
import { type Deadline, deadlineFailure, underDeadline } from './deadline.js';
import { hostBoundFetch, originOf } from './httpPolicy.js';
import {
  chatWireBytes,
  DEFAULT_REPLY_LIMITS,
  limitBody,
  METADATA_BYTES,
  type ReplyLimits,
  tooLong,
} from './replyLimit.js';
import { openAiTimings, withTimings } from './timings.js';
import { describeError, statusFailureKind, transportFailure } from './transportErrors.js';
import {
  type ChatRequest,
  type ChatResponse,
  type ModelMetadata,
  type Provider,
  ProviderFailure,
  type ServerInfo,
} from './types.js';

export interface OpenAIProviderOptions {
  /** Server root, without /v1. */
  host: string;
  apiKey: string;
  timeoutMs: number;
  fetch?: typeof fetch;
  /** Size caps of answers and embeddings (runner.max-reply-bytes, …); 64 kB and 1 MB by default. */
  limits?: ReplyLimits;
}

/** Some servers require a key and accept any; none of ours is a secret. */
export const PLACEHOLDER_API_KEY = 'model-gate-no-key';

interface ListedModel {
  id: string;
  owned_by?: string;
}

export class OpenAIProvider implements Provider {
  readonly info: ServerInfo;
  private readonly limits: ReplyLimits;

  constructor(private readonly options: OpenAIProviderOptions) {
    this.info = { provider: 'openai', host: options.host, version: null, simulated: false };
    this.limits = options.limits ?? DEFAULT_REPLY_LIMITS;
  }

  /** A client whose every response body is cut, and its connection dropped, past `wireBytes`. */
  private client(wireBytes: number): OpenAI {
    // Requests go to the host's origin only, redirects within it alone are followed.
    const base = hostBoundFetch(this.options.fetch ?? fetch, originOf(this.options.host));
    const capped: typeof fetch = async (input, init) => {
      const drop = new AbortController();
      const signal = init?.signal ? AbortSignal.any([init.signal, drop.signal]) : drop.signal;
      const response = await base(input, { ...init, signal });
      return limitBody(
        response,
        wireBytes,
        () => tooLong(wireBytes, 'bytes on the wire for this request'),
        () => drop.abort(),
      );
    };
    // A query string the host carries (provider.allow-host-query) goes with every request.
    const { base: root, query } = splitHostQuery(this.options.host);
    return new OpenAI({
      baseURL: `${root.replace(/\/$/, '')}/v1`,
      ...(query.size > 0 ? { defaultQuery: Object.fromEntries(query) } : {}),
      apiKey: this.options.apiKey,
      maxRetries: 0,
      // Our deadline fires first; this only stops the client from waiting ten minutes.
      timeout: this.options.timeoutMs * 2,
      fetch: capped,
    });
  }

  async chat(
    request: ChatRequest,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<ChatResponse> {
    const limit = timeoutMs ?? this.options.timeoutMs;
    const started = performance.now();
    return underDeadline(limit, signal, classify, async (deadline) => {
      const completion = await this.client(chatWireBytes(this.limits)).chat.completions.create(
        {
          model: request.model,
          messages: request.messages,
          temperature: request.options.temperature,
          seed: request.options.seed,
          max_tokens: request.options.numPredict,
          stream: false,
          ...(request.format
            ? {
                response_format: {
                  type: 'json_schema' as const,
                  json_schema: { name: 'answer', schema: request.format, strict: true },
                },
              }
            : {}),
        },
        { signal: deadline.signal, timeout: limit * 2 },
      );
      const choice = completion.choices[0];
      if (!choice) throw new ProviderFailure('server-error', 'the reply has no choices');
      const message: object = choice.message;
      const { maxReplyBytes } = this.limits;
      const replyBytes =
        Buffer.byteLength(choice.message.content ?? '') +
        Buffer.byteLength(reasoningOf(message) ?? '');
      if (replyBytes > maxReplyBytes) throw tooLong(maxReplyBytes, 'runner.max-reply-bytes');
      return {
        content: choice.message.content ?? '',
        thinking: reasoningOf(message),
        doneReason: choice.finish_reason ?? null,
        promptTokens: countOrNull(completion.usage?.prompt_tokens),
        completionTokens: countOrNull(completion.usage?.completion_tokens),
        latencyMs: performance.now() - started,
        ...withTimings(openAiTimings(completion)),
      };
    });
  }

  async describe(model: string, signal?: AbortSignal): Promise<ModelMetadata> {
    const listed = await this.listModels(signal);
    const entry = listed?.find((m) => m.id === model) ?? null;
    if (listed !== null && !entry) {
      throw new ProviderFailure(
        'model-missing',
        `model '${model}' is not served at ${this.options.host} (GET /v1/models does not list it)`,
        404,
        listed.map((m) => m.id),
      );
    }
    return {
      model,
      digest: null,
      quantization: null,
      parameterSize: null,
      family: null,
      simulated: entry?.owned_by === 'simulated',
    };
  }

  async version(signal?: AbortSignal): Promise<string | null> {
    // Reachability is what the runner needs from this; the API has no version endpoint.
    await this.listModels(signal);
    return null;
  }

  async loadedModels(): Promise<string[] | null> {
    return null;
  }

  async embed(model: string, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    return underDeadline(this.options.timeoutMs, signal, classify, async (deadline) => {
      const wire = this.limits.maxEmbeddingBytes * Math.max(1, texts.length);
      const reply = await this.client(wire).embeddings.create(
        { model, input: texts },
        { signal: deadline.signal },
      );
      return reply.data.map((d) => d.embedding);
    });
  }

  /** The served models, or null when the server has no /v1/models. */
  private listModels(signal?: AbortSignal): Promise<ListedModel[] | null> {
    return underDeadline(this.options.timeoutMs, signal, classify, async (deadline) => {
      try {
        const page = await this.client(METADATA_BYTES).models.list({ signal: deadline.signal });
        return page.data.map((m) => ({ id: m.id, owned_by: m.owned_by }));
      } catch (error) {
        if (error instanceof OpenAI.NotFoundError) return null;
        throw error;
      }
    });
  }
}

function classify(error: unknown, deadline: Deadline, timeoutMs: number): ProviderFailure {
  const timedOut = error instanceof OpenAI.APIConnectionTimeoutError;
  const settled = deadlineFailure(error, deadline, timeoutMs, timedOut);
  if (settled) return settled;
  if (error instanceof SyntaxError) {
    return new ProviderFailure('server-error', `malformed JSON in the reply: ${error.message}`);
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const transport = transportFailure(error);
    return (
      transport ?? new ProviderFailure('unreachable', `connection failed: ${describeError(error)}`)
    );
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    return new ProviderFailure(statusFailureKind(error.status), error.message, error.status);
  }
  return transportFailure(error) ?? new ProviderFailure('server-error', describeError(error));
}

/** Ollama's /v1 says `reasoning`, vLLM and llama.cpp say `reasoning_content`. */
function reasoningOf(message: object): string | null {
  for (const field of ['reasoning', 'reasoning_content']) {
    const value: unknown = (message as Record<string, unknown>)[field];
    if (typeof value === 'string' && value !== '') return value;
  }
  return null;
}

/**
 * Ollama. Chats, the hot path, go straight over node:http on kept-alive connections
 * (ollamaChat.ts), with one deadline each (caller cancel + timeout, one timer). Chats stream:
 * the headers arrive at once (a long generation never waits on a header timeout) and a server
 * error after the first token reaches us as the error line Ollama sends. The other endpoints
 * (models, versions, embeddings) go through the official `ollama` client, which has no
 * timeout and ignores OLLAMA_HOST: the host is explicit and each request gets its own client
 * whose `fetch` carries that request's deadline.
 */

import type { Agent } from 'node:http';
import { Ollama } from 'ollama';
import { splitHostQuery, withQuery } from '../config/hostUrl.js';
import { type Deadline, deadlineFailure, underDeadline } from './deadline.js';
import { hostBoundFetch } from './httpPolicy.js';
import { withTag } from './modelTag.js';
import { chatAgent, ollamaApiUrl, ollamaChat } from './ollamaChat.js';
import {
  chatWireBytes,
  DEFAULT_REPLY_LIMITS,
  ERROR_BODY_BYTES,
  limitBody,
  METADATA_BYTES,
  type ReplyLimits,
  readTextUpTo,
  tooLong,
  unlessPage,
} from './replyLimit.js';
import { describeError, statusFailureKind, transportFailure } from './transportErrors.js';
import {
  type ChatRequest,
  type ChatResponse,
  type ModelMetadata,
  type Provider,
  ProviderFailure,
  type RunningModel,
  type ServerInfo,
} from './types.js';

export const DEFAULT_OLLAMA_HOST = 'http://127.0.0.1:11434';

export interface OllamaProviderOptions {
  host: string;
  /** Per-request limit, queue time on the server included. */
  timeoutMs: number;
  /** How long the server keeps the model loaded after a request (Ollama keep_alive). */
  keepAlive: string;
  /** The fetch the other endpoints go through (chats use node:http); Node's global fetch by default. */
  fetch?: typeof fetch;
  /** Size caps of answers and embeddings (runner.max-reply-bytes, …); 64 kB and 1 MB by default. */
  limits?: ReplyLimits;
}

export class OllamaProvider implements Provider {
  readonly info: ServerInfo;
  private serverVersion: Promise<string | null> | null = null;
  private readonly chatUrl: URL;
  private readonly agent: Agent;

  constructor(private readonly options: OllamaProviderOptions) {
    this.info = { provider: 'ollama', host: options.host, version: null, simulated: false };
    this.chatUrl = new URL(ollamaApiUrl(options.host, 'chat'));
    this.agent = chatAgent(this.chatUrl);
  }

  async chat(
    request: ChatRequest,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<ChatResponse> {
    const started = performance.now();
    const limit = timeoutMs ?? this.options.timeoutMs;
    return underDeadline(limit, signal, classify, (deadline) =>
      ollamaChat(request, {
        url: this.chatUrl,
        agent: this.agent,
        keepAlive: this.options.keepAlive,
        signal: deadline.signal,
        maxReplyBytes: this.limits.maxReplyBytes,
        wireBytes: chatWireBytes(this.limits),
        started,
      }),
    );
  }

  async describe(model: string, signal?: AbortSignal): Promise<ModelMetadata> {
    const version = await this.version(signal);
    return this.withClient(signal, METADATA_BYTES, async (client) => {
      const wanted = withTag(model);
      const { models } = await client.list();
      const tag = models.find((m) => withTag(m.name) === wanted || withTag(m.model) === wanted);
      if (!tag) {
        throw new ProviderFailure(
          'model-missing',
          `model '${model}' is not on the Ollama server at ${this.options.host}`,
          404,
          models.map((m) => m.name),
        );
      }
      const shown = await client.show({ model: tag.name });
      const details = shown.details ?? tag.details;
      return {
        model,
        digest: tag.digest ? tag.digest.replace(/^sha256:/, '') : null,
        quantization: details?.quantization_level || null,
        parameterSize: details?.parameter_size || null,
        family: details?.family || null,
        simulated: version?.includes('simulated') ?? false,
      };
    });
  }

  version(signal?: AbortSignal): Promise<string | null> {
    this.serverVersion ??= this.withClient(signal, METADATA_BYTES, async (client) => {
      const { version } = await client.version();
      return typeof version === 'string' ? version : null;
    }).catch((error: unknown) => {
      // A failed probe is not cached: the next call asks again.
      this.serverVersion = null;
      throw error;
    });
    return this.serverVersion;
  }

  async loadedModels(signal?: AbortSignal): Promise<string[] | null> {
    return (await this.running(signal)).map((m) => m.name);
  }

  running(signal?: AbortSignal): Promise<RunningModel[]> {
    return this.withClient(signal, METADATA_BYTES, async (client) => {
      const { models } = await client.ps();
      return models.map((m) => {
        // context_length is newer than the client's types; absent on older servers.
        const context = (m as { context_length?: unknown }).context_length;
        return {
          name: m.name,
          digest: m.digest ? m.digest.replace(/^sha256:/, '') : null,
          contextLength: typeof context === 'number' ? context : null,
          sizeVram: typeof m.size_vram === 'number' ? m.size_vram : null,
          size: typeof m.size === 'number' ? m.size : null,
        };
      });
    });
  }

  unloadModel(model: string, signal?: AbortSignal): Promise<void> {
    return this.withClient(signal, METADATA_BYTES, async (client) => {
      await client.generate({ model, prompt: '', keep_alive: 0, stream: false });
    });
  }

  embed(model: string, texts: string[], signal?: AbortSignal): Promise<number[][]> {
    const wire = this.limits.maxEmbeddingBytes * Math.max(1, texts.length);
    return this.withClient(signal, wire, async (client) => {
      const reply = await client.embed({ model, input: texts, keep_alive: this.options.keepAlive });
      return reply.embeddings;
    });
  }

  private get limits(): ReplyLimits {
    return this.options.limits ?? DEFAULT_REPLY_LIMITS;
  }

  /**
   * Runs `work` with a client bound to a fresh deadline, each response body capped at
   * `wireBytes`; every failure becomes a ProviderFailure.
   */
  private withClient<T>(
    signal: AbortSignal | undefined,
    wireBytes: number,
    work: (client: Ollama) => Promise<T>,
  ): Promise<T> {
    return underDeadline(this.options.timeoutMs, signal, classify, (deadline) => {
      // The client drops a query string from its host: each request gets it back.
      const { base, query } = splitHostQuery(this.options.host);
      const fetch = hostBoundFetch(this.options.fetch ?? globalThis.fetch, this.chatUrl.origin);
      const client = new Ollama({
        host: base,
        fetch: guardedFetch(fetch, deadline, wireBytes, query),
      });
      return work(client);
    });
  }
}

/**
 * Adds the deadline to every request the client makes, caps each body at `wireBytes` (the
 * connection is dropped past it) and turns a non-JSON error body into Ollama's
 * `{"error": …}` shape (the client would print it to the console otherwise).
 */
function guardedFetch(
  base: typeof fetch,
  deadline: Deadline,
  wireBytes: number,
  query: URLSearchParams,
): typeof fetch {
  return async (input, init) => {
    const drop = new AbortController();
    const signals = [deadline.signal, drop.signal, ...(init?.signal ? [init.signal] : [])];
    const signal = AbortSignal.any(signals);
    const target =
      typeof input === 'string' || input instanceof URL ? withQuery(String(input), query) : input;
    const fetched = await base(target, { ...init, signal });
    const type = fetched.headers.get('content-type') ?? '';
    if (!fetched.ok && !type.includes('application/json')) {
      // Only the start of an error body is read: it is quoted, never stored whole.
      const text = unlessPage(await readTextUpTo(fetched, ERROR_BODY_BYTES), type).trim();
      return new Response(JSON.stringify({ error: text || `HTTP ${fetched.status}` }), {
        status: fetched.status,
        statusText: fetched.statusText,
        headers: { 'content-type': 'application/json' },
      });
    }
    return limitBody(
      fetched,
      wireBytes,
      () => tooLong(wireBytes, 'bytes on the wire for this request'),
      () => drop.abort(),
    );
  };
}

function classify(error: unknown, deadline: Deadline, timeoutMs: number): ProviderFailure {
  const settled = deadlineFailure(error, deadline, timeoutMs);
  if (settled) return settled;
  if (error instanceof SyntaxError) {
    return new ProviderFailure('server-error', describeError(error));
  }
  if (error instanceof Error && error.name === 'ResponseError') {
    const status = (error as Error & { status_code?: unknown }).status_code;
    if (typeof status === 'number') {
      return new ProviderFailure(statusFailureKind(status), `${status} ${error.message}`, status);
    }
  }
  const transport = transportFailure(error);
  if (transport) return transport;
  if (error instanceof Error && !(error instanceof TypeError)) {
    // The client throws a plain Error for an {"error": …} line in a stream that had begun,
    // and for a stream that stopped before its last record: the server lost the request.
    return new ProviderFailure('connection-reset', `reply interrupted: ${error.message}`);
  }
  return new ProviderFailure('server-error', describeError(error));
}

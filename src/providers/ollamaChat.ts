/**
 * One Ollama chat over HTTP, without a client library in between: the request body is the
 * one Ollama documents for /api/chat, the streamed reply is read in one pass (ndjson.ts) and
 * assembled here. A chat is the run's hot path (thousands per run): one fetch, one reader,
 * each line parsed once; no wrapped streams, no client object per request.
 */
import { readNdjson } from './ndjson.js';
import { ERROR_BODY_BYTES, readTextUpTo, tooLong } from './replyLimit.js';
import { statusFailureKind } from './transportErrors.js';
import {
  type ChatRequest,
  type ChatResponse,
  ProviderFailure,
  type TokenLogprob,
} from './types.js';

export interface OllamaChatOptions {
  /** The server root as ollama-js spells it (see ollamaApiUrl). */
  url: string;
  keepAlive: string;
  fetch: typeof fetch;
  signal: AbortSignal;
  maxReplyBytes: number;
  wireBytes: number;
  started: number;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/x-ndjson' };

/** The URL of `/api/<endpoint>` on `host`, completed as the `ollama` client completes it. */
export function ollamaApiUrl(host: string, endpoint: string): string {
  const explicit = host.includes('://');
  const url = new URL(explicit ? host : `http://${host}`);
  const port = url.port || (explicit ? (url.protocol === 'https:' ? '443' : '80') : '11434');
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const root = `${url.protocol}//${auth}${url.hostname}:${port}${url.pathname}`.replace(/\/$/, '');
  return `${root}/api/${endpoint}`;
}

export function chatBody(request: ChatRequest, keepAlive: string): string {
  return JSON.stringify({
    model: request.model,
    messages: request.messages,
    stream: true,
    think: request.options.think,
    keep_alive: keepAlive,
    ...(request.format ? { format: request.format } : {}),
    ...(request.answerProbabilities
      ? { logprobs: true, top_logprobs: request.answerProbabilities.top }
      : {}),
    options: {
      temperature: request.options.temperature,
      seed: request.options.seed,
      num_ctx: request.options.numCtx,
      num_predict: request.options.numPredict,
    },
  });
}

/** Sends one chat and assembles its streamed reply; throws ProviderFailure or fetch errors. */
export async function ollamaChat(
  request: ChatRequest,
  options: OllamaChatOptions,
): Promise<ChatResponse> {
  const response = await options.fetch(options.url, {
    method: 'POST',
    headers: HEADERS,
    body: chatBody(request, options.keepAlive),
    signal: options.signal,
  });
  if (!response.ok) throw await statusFailure(response);
  if (!response.body) {
    throw new ProviderFailure('connection-reset', 'reply interrupted: the reply has no body');
  }
  const reply = new ReplyParts(options.maxReplyBytes);
  const done = await readNdjson(response.body, {
    wireBytes: options.wireBytes,
    tooLong: () => tooLong(options.wireBytes, 'bytes on the wire for this request'),
    onValue: (part) => reply.add(part),
  });
  if (!done) {
    throw new ProviderFailure(
      'connection-reset',
      'reply interrupted: the reply stream ended before it was done',
    );
  }
  return reply.response(performance.now() - options.started);
}

/** What a streamed reply has said so far, and its closing record's fields. */
class ReplyParts {
  private content = '';
  private thinking = '';
  private bytes = 0;
  // Stays null when no part carries the field: a server before 0.12.11 ignores the ask.
  private logprobs: TokenLogprob[] | null = null;
  private last: Record<string, unknown> = {};

  constructor(private readonly maxReplyBytes: number) {}

  /** Takes one streamed record; true when it is the last one. */
  add(part: unknown): boolean {
    if (typeof part !== 'object' || part === null || Array.isArray(part)) {
      throw new ProviderFailure(
        'server-error',
        `malformed reply: a streamed record is not an object (${JSON.stringify(part)?.slice(0, 80)})`,
      );
    }
    const record = part as Record<string, unknown>;
    if ('error' in record) {
      // An error line after the stream began: the server lost the request (e.g. the runner
      // process died), worth another try.
      throw new ProviderFailure('connection-reset', `reply interrupted: ${String(record.error)}`);
    }
    const message = record.message as { content?: unknown; thinking?: unknown } | undefined;
    const text = typeof message?.content === 'string' ? message.content : '';
    const thought = typeof message?.thinking === 'string' ? message.thinking : '';
    this.bytes += Buffer.byteLength(text) + Buffer.byteLength(thought);
    if (this.bytes > this.maxReplyBytes) {
      // Dropped now: a model that never stops would otherwise run until the timeout.
      throw tooLong(this.maxReplyBytes, 'runner.max-reply-bytes');
    }
    this.content += text;
    this.thinking += thought;
    if (Array.isArray(record.logprobs)) {
      this.logprobs ??= [];
      for (const token of record.logprobs as TokenLogprob[]) this.logprobs.push(token);
    }
    this.last = record;
    return Boolean(record.done);
  }

  response(latencyMs: number): ChatResponse {
    const last = this.last;
    return {
      content: this.content,
      thinking: this.thinking === '' ? null : this.thinking,
      doneReason:
        typeof last.done_reason === 'string' && last.done_reason ? last.done_reason : null,
      promptTokens: countOrNull(last.prompt_eval_count),
      completionTokens: countOrNull(last.eval_count),
      latencyMs,
      ...(this.logprobs ? { logprobs: this.logprobs } : {}),
    };
  }
}

/**
 * An HTTP error status as a failure: Ollama's `{"error": …}` message, else the start of the
 * body (an error page of a proxy), else the status alone.
 */
async function statusFailure(response: Response): Promise<ProviderFailure> {
  const { status } = response;
  // Only the start of an error body is read: it is quoted, never stored whole.
  const text = (await readTextUpTo(response, ERROR_BODY_BYTES)).trim();
  let message = text || `HTTP ${status}`;
  if ((response.headers.get('content-type') ?? '').includes('application/json')) {
    let said: unknown;
    try {
      said = (JSON.parse(text) as { error?: unknown }).error;
    } catch {
      said = undefined;
    }
    message = typeof said === 'string' && said ? said : `Error ${status}: ${response.statusText}`;
  }
  return new ProviderFailure(statusFailureKind(status), `${status} ${message}`, status);
}

function countOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

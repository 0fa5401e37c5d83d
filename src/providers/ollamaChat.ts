/**
 * One Ollama chat over node:http, without a client library or fetch in between: the request
 * body is the one Ollama documents for /api/chat, the streamed reply is read in one pass
 * (ndjson.ts) and assembled here. A chat is the run's hot path (thousands per run, the next
 * one waiting on this one's answer): one request on a kept-alive connection, each line parsed
 * once, no web streams, no client object per request. Measured against the simulator, this
 * keeps a server's slots busier than Node's fetch does (fetch's streams cost more per reply).
 */
import http from 'node:http';
import https from 'node:https';
import { NdjsonLines } from './ndjson.js';
import { ERROR_BODY_BYTES, tooLong, unlessPage } from './replyLimit.js';
import { statusFailureKind } from './transportErrors.js';
import { neutralise } from '../text/neutralise.js';
import { countOrNull } from './counts.js';
import { ollamaTimings, withTimings } from './timings.js';
import {
  type ChatRequest,
  type ChatResponse,
  ProviderFailure,
  type TokenLogprob,
} from './types.js';
import { nextHop } from './httpPolicy.js';

export interface OllamaChatOptions {
  /** The chat endpoint (see ollamaApiUrl). */
  url: URL;
  /** Keeps connections alive between requests (see chatAgent). */
  agent: http.Agent;
  keepAlive: string;
  signal: AbortSignal;
  maxReplyBytes: number;
  wireBytes: number;
  /** performance.now() when the call began: the latency is counted from it. */
  started: number;
}

/** One agent per provider: connections are reused from one request to the next. */
export function chatAgent(url: URL): http.Agent {
  return url.protocol === 'https:'
    ? new https.Agent({ keepAlive: true })
    : new http.Agent({ keepAlive: true });
}

/**
 * The URL of `/api/<endpoint>` on `host`, completed as the `ollama` client completes it; the
 * host's query string, when `provider.allow-host-query` let one through, is kept.
 */
export function ollamaApiUrl(host: string, endpoint: string): string {
  const explicit = host.includes('://');
  const url = new URL(explicit ? host : `http://${host}`);
  const port = url.port || (explicit ? (url.protocol === 'https:' ? '443' : '80') : '11434');
  const auth = url.username ? `${url.username}${url.password ? `:${url.password}` : ''}@` : '';
  const root = `${url.protocol}//${auth}${url.hostname}:${port}${url.pathname}`.replace(/\/$/, '');
  return `${root}/api/${endpoint}${url.search}`;
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

/** Sends one chat and assembles its streamed reply; rejects with ProviderFailure or socket errors. */
export function ollamaChat(
  request: ChatRequest,
  options: OllamaChatOptions,
): Promise<ChatResponse> {
  return send(chatBody(request, options.keepAlive), options.url, options, 0);
}

/**
 * One POST of the chat to `url`. A redirect within the chat URL's origin is sent again to
 * where it leads (307 and 308 keep the POST; Ollama sends no other); one to another host is
 * refused (httpPolicy.ts).
 */
function send(
  body: string,
  url: URL,
  options: OllamaChatOptions,
  hops: number,
): Promise<ChatResponse> {
  const request = url.protocol === 'https:' ? https.request : http.request;
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: options.agent,
        signal: options.signal,
        headers: {
          'content-type': 'application/json',
          accept: 'application/x-ndjson',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        // A failure while the reply streams drops the connection: its remaining bytes are
        // not wanted, and a server that streams forever must stop sending.
        const fail = (error: unknown): void => {
          reject(error);
          req.destroy();
        };
        const status = res.statusCode ?? 0;
        let next: URL | null;
        try {
          next = nextHop(status, res.headers.location, url, options.url.origin, hops);
        } catch (error) {
          fail(error);
          return;
        }
        if (next !== null && (status === 307 || status === 308)) {
          res.resume();
          send(body, next, options, hops + 1).then(resolve, reject);
        } else if (next !== null) {
          // A 301, 302 or 303 turns the POST into a GET, which is no chat.
          fail(
            new ProviderFailure(
              'bad-request',
              `${status}: the server redirected the chat to ${next.pathname} with a redirect that drops its body: not followed; set provider.host to the server's own address`,
              status,
            ),
          );
        } else if (status < 200 || status >= 300) readFailure(res, reject, fail);
        else if (isWebPage(res)) fail(webPageReply(res));
        else readReply(res, options, resolve, fail);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A reply labelled as a web page is not Ollama's stream, whatever its body parses as: a proxy's
 * sign-in or error page, or a host that is not the model server. Refused, with words.
 */
function isWebPage(res: http.IncomingMessage): boolean {
  return /html|xml/i.test(res.headers['content-type'] ?? '');
}

function webPageReply(res: http.IncomingMessage): ProviderFailure {
  const type = neutralise(res.headers['content-type'] ?? '', 80);
  return new ProviderFailure(
    'server-error',
    `the server answered with content-type ${type}, not Ollama's NDJSON stream (application/x-ndjson): is provider.host a proxy's or another web server's page rather than the Ollama server?`,
  );
}

/** Feeds the reply's lines to a ReplyParts; resolves at the closing record. */
function readReply(
  res: http.IncomingMessage,
  options: OllamaChatOptions,
  resolve: (response: ChatResponse) => void,
  fail: (error: unknown) => void,
): void {
  const reply = new ReplyParts(options.maxReplyBytes, options.started);
  const lines = new NdjsonLines((part) => reply.add(part));
  let seen = 0;
  let done = false;
  const finish = (): void => {
    done = true;
    resolve(reply.response(performance.now() - options.started));
  };
  res.on('data', (chunk: Buffer) => {
    seen += chunk.byteLength;
    // Counted after the closing record too: bytes past it are read and dropped, up to the cap.
    if (seen > options.wireBytes)
      fail(tooLong(options.wireBytes, 'bytes on the wire for this request'));
    else if (!done) guarded(() => lines.push(chunk) && finish(), fail);
  });
  res.on('end', () => {
    if (done) return;
    guarded(() => {
      if (lines.end()) finish();
      else fail(interrupted('the reply stream ended before it was done'));
    }, fail);
  });
  res.on('error', fail);
  res.on('close', () => {
    if (!done && !res.complete) fail(interrupted('the connection closed mid-reply'));
  });
}

function guarded(work: () => unknown, fail: (error: unknown) => void): void {
  try {
    work();
  } catch (error) {
    fail(error);
  }
}

function interrupted(why: string): ProviderFailure {
  return new ProviderFailure('connection-reset', `reply interrupted: ${why}`);
}

/** What a streamed reply has said so far, and its closing record's fields. */
class ReplyParts {
  private content = '';
  private thinking = '';
  private bytes = 0;
  // Stays null when no part carries the field: a server before 0.12.11 ignores the ask.
  private logprobs: TokenLogprob[] | null = null;
  private last: Record<string, unknown> = {};
  private firstTokenMs: number | null = null;

  constructor(
    private readonly maxReplyBytes: number,
    private readonly started: number,
  ) {}

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
    if (this.firstTokenMs === null && (text !== '' || thought !== ''))
      this.firstTokenMs = performance.now() - this.started;
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
      ...withTimings(ollamaTimings(last, this.firstTokenMs)),
      ...(this.logprobs ? { logprobs: this.logprobs } : {}),
    };
  }
}

/**
 * An HTTP error status as a failure: Ollama's `{"error": …}` message, else the start of the
 * body (an error page of a proxy), else the status alone. Only the start of an error body is
 * read: it is quoted, never stored whole, and a longer one drops the connection.
 */
function readFailure(
  res: http.IncomingMessage,
  reject: (error: unknown) => void,
  fail: (error: unknown) => void,
): void {
  const chunks: Buffer[] = [];
  let seen = 0;
  res.on('data', (chunk: Buffer) => {
    if (seen >= ERROR_BODY_BYTES) return;
    chunks.push(chunk);
    seen += chunk.byteLength;
    if (seen >= ERROR_BODY_BYTES) fail(statusFailure(res, `${bodyText(chunks)}…`));
  });
  res.on('end', () => reject(statusFailure(res, bodyText(chunks))));
  res.on('error', fail);
}

function bodyText(chunks: Buffer[]): string {
  return new TextDecoder().decode(Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES));
}

function statusFailure(res: http.IncomingMessage, body: string): ProviderFailure {
  const status = res.statusCode ?? 0;
  const type = res.headers['content-type'] ?? '';
  const text = unlessPage(body, type).trim();
  let message = text || `HTTP ${status}`;
  if (type.includes('application/json')) {
    let said: unknown;
    try {
      said = (JSON.parse(text) as { error?: unknown }).error;
    } catch {
      said = undefined;
    }
    message =
      typeof said === 'string' && said ? said : `Error ${status}: ${res.statusMessage ?? ''}`;
  }
  return new ProviderFailure(statusFailureKind(status), `${status} ${message}`, status);
}

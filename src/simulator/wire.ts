/**
 * Translation between the simulator's generations and the two wire formats it speaks: the
 * Ollama API (/api/chat, /api/generate) and the OpenAI chat completions API (/v1). Field
 * names follow the real servers so the real client libraries parse them.
 */
import type { JsonSchema, TokenLogprob } from '../providers/types.js';
import type { SimulatedChat } from './behaviour.js';
import type { Generation, GenerationRequest } from './generation.js';
import { SimulatedHttpError } from './generation.js';

export type Endpoint = 'chat' | 'generate' | 'openai';

export interface ParsedRequest {
  generation: GenerationRequest;
  stream: boolean;
}

type Json = Record<string, unknown>;

const DEFAULT_TEMPERATURE = 0.8;

export function parseGenerationRequest(endpoint: Endpoint, body: Json): ParsedRequest {
  const model = body.model;
  if (typeof model !== 'string' || model === '') {
    throw new SimulatedHttpError(400, 'model is required');
  }
  const options = isObject(body.options) ? body.options : {};
  let system: string | null = null;
  let user = '';
  if (endpoint === 'generate') {
    system = typeof body.system === 'string' ? body.system : null;
    user = typeof body.prompt === 'string' ? body.prompt : '';
  } else {
    if (!Array.isArray(body.messages)) throw new SimulatedHttpError(400, 'messages are required');
    for (const message of body.messages) {
      if (!isObject(message) || typeof message.content !== 'string') {
        throw new SimulatedHttpError(400, 'each message needs a role and a string content');
      }
      if (message.role === 'system' && system === null) system = message.content;
      if (message.role === 'user') user = message.content;
    }
  }
  const format =
    endpoint === 'openai' ? openaiFormat(body.response_format) : ollamaFormat(body.format);
  const temperature = numberOr(
    endpoint === 'openai' ? body.temperature : options.temperature,
    DEFAULT_TEMPERATURE,
  );
  const seed = Math.trunc(numberOr(endpoint === 'openai' ? body.seed : options.seed, 0));
  const numPredictRaw =
    endpoint === 'openai' ? (body.max_tokens ?? body.max_completion_tokens) : options.num_predict;
  const numPredict = typeof numPredictRaw === 'number' ? numPredictRaw : null;
  const numCtx = typeof options.num_ctx === 'number' ? options.num_ctx : null;
  const think = body.think === true || typeof body.think === 'string';
  const chat: SimulatedChat = { model, system, user, format, temperature, seed };
  // Ollama streams unless told not to; the OpenAI API does not stream unless asked.
  const stream = endpoint === 'openai' ? body.stream === true : body.stream !== false;
  const logprobs = endpoint === 'openai' ? null : logprobsAsked(body);
  return { generation: { chat, think, numPredict, numCtx, logprobs }, stream };
}

/** Ollama's rules for `logprobs` / `top_logprobs` (server 0.12.11). */
function logprobsAsked(body: Json): { top: number } | null {
  const top = body.top_logprobs ?? 0;
  if (typeof top !== 'number' || !Number.isInteger(top) || top < 0 || top > 20) {
    throw new SimulatedHttpError(400, 'top_logprobs must be between 0 and 20');
  }
  if (body.logprobs !== true) {
    if (top > 0) throw new SimulatedHttpError(400, 'top_logprobs requires logprobs to be true');
    return null;
  }
  return { top };
}

export function ollamaReply(endpoint: 'chat' | 'generate', g: Generation, createdAt: string): Json {
  return {
    model: g.model.name,
    created_at: createdAt,
    ...ollamaText(endpoint, g.content, g.thinking),
    ...(g.logprobs ? { logprobs: g.logprobs } : {}),
    done: true,
    done_reason: g.doneReason,
    ...durations(g),
  };
}

/** Streamed pieces: thinking first, then the answer, then the closing record with counts. */
export function ollamaChunks(
  endpoint: 'chat' | 'generate',
  g: Generation,
  createdAt: string,
): Json[] {
  const piece = (field: 'content' | 'thinking', text: string, logprobs?: TokenLogprob[]): Json => ({
    model: g.model.name,
    created_at: createdAt,
    ...(field === 'content' ? ollamaText(endpoint, text, null) : ollamaText(endpoint, '', text)),
    ...(logprobs ? { logprobs } : {}),
    done: false,
  });
  const chunks: Json[] = [];
  for (const part of splitPieces(g.thinking ?? '')) chunks.push(piece('thinking', part));
  if (g.logprobs) {
    // With logprobs, a piece per token and its log-probability beside it, as Ollama streams.
    for (const token of g.logprobs) chunks.push(piece('content', token.token, [token]));
  } else {
    for (const part of splitPieces(g.content)) chunks.push(piece('content', part));
  }
  const closing = ollamaReply(
    endpoint,
    { ...g, content: '', thinking: null, logprobs: null },
    createdAt,
  );
  chunks.push(closing);
  return chunks;
}

/** The answer's fields: a chat message, or generate's `response`; thinking beside it when any. */
function ollamaText(endpoint: 'chat' | 'generate', content: string, thinking: string | null): Json {
  const thought = thinking !== null ? { thinking } : {};
  return endpoint === 'chat'
    ? { message: { role: 'assistant', content, ...thought } }
    : { response: content, ...thought };
}

export function openaiReply(g: Generation, id: number, createdAt: Date): Json {
  return {
    id: `chatcmpl-${id}`,
    object: 'chat.completion',
    created: Math.floor(createdAt.getTime() / 1000),
    model: g.model.name,
    system_fingerprint: 'fp_simulated',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: g.content,
          ...(g.thinking !== null ? { reasoning: g.thinking } : {}),
        },
        finish_reason: g.doneReason,
      },
    ],
    usage: {
      prompt_tokens: g.promptTokens,
      completion_tokens: g.completionTokens,
      total_tokens: g.promptTokens + g.completionTokens,
    },
    // Only a model with a timing block reports them, so older scenarios reply as they did.
    ...(g.model.timing ? { timings: llamaCppTimings(g) } : {}),
  };
}

export function openaiError(status: number, message: string): Json {
  const type = status >= 500 ? 'api_error' : 'invalid_request_error';
  return { error: { message, type, param: null, code: null } };
}

function durations(g: Generation): Json {
  return {
    total_duration: g.timing.totalNs,
    load_duration: g.timing.loadNs,
    prompt_eval_count: g.promptTokens,
    prompt_eval_duration: g.timing.promptNs,
    eval_count: g.completionTokens,
    eval_duration: g.timing.evalNs,
  };
}

/** llama.cpp's `timings` beside an OpenAI-compatible reply (milliseconds), for a timed model. */
function llamaCppTimings(g: Generation): Json {
  const promptMs = g.timing.promptNs / 1e6;
  const predictedMs = g.timing.evalNs / 1e6;
  const perToken = (ms: number, n: number): number => (n > 0 ? ms / n : 0);
  const perSecond = (ms: number, n: number): number => (ms > 0 ? (n * 1000) / ms : 0);
  return {
    prompt_n: g.promptTokens,
    prompt_ms: promptMs,
    prompt_per_token_ms: perToken(promptMs, g.promptTokens),
    prompt_per_second: perSecond(promptMs, g.promptTokens),
    predicted_n: g.completionTokens,
    predicted_ms: predictedMs,
    predicted_per_token_ms: perToken(predictedMs, g.completionTokens),
    predicted_per_second: perSecond(predictedMs, g.completionTokens),
  };
}

/** Words with their trailing spaces, a few per piece, so streams have several chunks. */
function splitPieces(text: string): string[] {
  if (text === '') return [];
  const words = text.match(/\S+\s*|\s+/g) ?? [text];
  const pieces: string[] = [];
  for (let i = 0; i < words.length; i += 3) pieces.push(words.slice(i, i + 3).join(''));
  return pieces;
}

function ollamaFormat(format: unknown): JsonSchema | null {
  if (format === 'json') return { type: 'object' };
  return isObject(format) ? format : null;
}

function openaiFormat(format: unknown): JsonSchema | null {
  if (!isObject(format)) return null;
  if (format.type === 'json_object') return { type: 'object' };
  if (format.type === 'json_schema' && isObject(format.json_schema)) {
    const schema = format.json_schema.schema;
    return isObject(schema) ? schema : { type: 'object' };
  }
  return null;
}

function numberOr(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

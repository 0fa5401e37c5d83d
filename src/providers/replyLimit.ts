/**
 * Replies are bounded: a server that streams forever, or sends one enormous answer, must
 * neither fill the memory nor the sample log. An answer longer than `runner.max-reply-bytes`
 * is a `too-long` failure (recorded `invalid`: the model ran away, the server did not fail)
 * and the connection is dropped at once. Every response body is also capped on the wire, a
 * multiple of the answer limit that leaves room for JSON framing and streamed envelopes.
 */
import { formatSize } from '../config/limits.js';
import { ProviderFailure } from './types.js';
import { neutralise } from '../text/neutralise.js';

export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024;
export const DEFAULT_MAX_EMBEDDING_BYTES = 1024 * 1024;
/** Largest error body read to quote it; the rest is not read. */
export const ERROR_BODY_BYTES = 16 * 1024;
/** Model lists, versions, model details. */
export const METADATA_BYTES = 8 * 1024 * 1024;

export interface ReplyLimits {
  /** Bytes of one answer (content and thinking together). */
  maxReplyBytes: number;
  /** Bytes of the embedding reply, per text embedded. */
  maxEmbeddingBytes: number;
}

export const DEFAULT_REPLY_LIMITS: ReplyLimits = {
  maxReplyBytes: DEFAULT_MAX_REPLY_BYTES,
  maxEmbeddingBytes: DEFAULT_MAX_EMBEDDING_BYTES,
};

/**
 * Wire bytes allowed for a chat reply: a streamed token costs a JSON envelope of ~100–200
 * bytes around a few bytes of text, and logprobs more; the answer cap itself is checked on
 * the decoded text.
 */
export function chatWireBytes(limits: ReplyLimits): number {
  return Math.max(64 * limits.maxReplyBytes, 1024 * 1024);
}

export function tooLong(limit: number, setting: string): ProviderFailure {
  return new ProviderFailure(
    'too-long',
    `the reply passed ${formatSize(limit)} (${setting}); it was cut off and the connection dropped`,
  );
}

/**
 * The response with a body that fails with `failure` once more than `limit` bytes arrived;
 * `drop` then aborts the request, which closes the connection.
 */
export function limitBody(
  response: Response,
  limit: number,
  failure: () => Error,
  drop: () => void,
): Response {
  if (!response.body) return response;
  let seen = 0;
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          controller.error(failure());
          drop();
          return;
        }
        controller.enqueue(chunk);
      },
    }),
  );
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/** At most `limit` bytes of the body as text; the rest is not read (the body is cancelled). */
export async function readTextUpTo(response: Response, limit: number): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let seen = 0;
  let cut = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    seen += value.byteLength;
    if (seen >= limit) {
      cut = true;
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const text = new TextDecoder().decode(Buffer.concat(chunks).subarray(0, limit));
  return cut ? `${text}…` : text;
}

/** Characters of an error body's line or of a page's title shown. */
const LINE_SHOWN = 80;

/**
 * One short line for a body the server sent instead of the answer expected: an HTML page's
 * title (or only that it was a page), else the first line of the text, cut.
 */
export function bodyLine(text: string, contentType: string): string {
  const page = pageTitle(text, contentType);
  if (page !== null) return page;
  const first = text.trim().split(/\r?\n/, 1)[0] ?? '';
  return neutralise(first, LINE_SHOWN);
}

/** An HTML page as its title ("an HTML page titled …"), any other body as it is. */
export function unlessPage(text: string, contentType: string): string {
  return pageTitle(text, contentType) ?? text;
}

function pageTitle(text: string, contentType: string): string | null {
  const trimmed = text.trim();
  if (!contentType.includes('html') && !/^<(!doctype|html|head|body)\b/i.test(trimmed)) return null;
  const title = /<title[^>]*>([^<]*)/i.exec(trimmed)?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? `an HTML page titled "${neutralise(title, LINE_SHOWN)}"` : 'an HTML page';
}

/**
 * One policy for every HTTP request to a model server, whichever client sends it (the `ollama`
 * and `openai` clients through `hostBoundFetch`, Ollama's chats over node:http through
 * `nextHop`): a request goes to provider.host's origin — its scheme, host and port — and
 * nowhere else. A redirect within that origin is followed (at most MAX_REDIRECTS); one to any
 * other origin is refused, and nothing is sent there. The server, or a proxy in front of it,
 * is not trusted to choose where the prompts, the API key (the Authorization header) and the
 * host's query go, nor to make the run read another host's answers (an address inside the
 * runner's network, say). A different port on the same address is another origin.
 */
import { neutralise } from '../text/neutralise.js';
import { ProviderFailure } from './types.js';

export const MAX_REDIRECTS = 5;

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** The origin of `url` (a server root or any URL on it). */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** Shown in a message: the URL without its query (it may carry a token) and made safe. */
function shownUrl(url: URL): string {
  return neutralise(`${url.origin}${url.pathname}`, 200);
}

/** Where a redirect answered at `from` leads, or a ProviderFailure when it may not be followed. */
export function nextHop(
  status: number,
  location: string | null | undefined,
  from: URL,
  origin: string,
  hops: number,
): URL | null {
  if (!REDIRECTS.has(status)) return null;
  if (!location) {
    throw new ProviderFailure(
      'bad-request',
      `${status}: the server at ${shownUrl(from)} answered with a redirect without a location`,
      status,
    );
  }
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new ProviderFailure(
      'bad-request',
      `${status}: the server at ${shownUrl(from)} answered with a redirect to an invalid URL`,
      status,
    );
  }
  if (next.origin !== origin) {
    throw new ProviderFailure(
      'bad-request',
      `${status}: the server at ${shownUrl(from)} answered with a redirect to ${shownUrl(next)}, another host: not followed (model-gate sends requests, and the API key, only to provider.host ${origin}); set provider.host to the server that answers`,
      status,
    );
  }
  if (hops >= MAX_REDIRECTS) {
    throw new ProviderFailure(
      'bad-request',
      `${status}: more than ${MAX_REDIRECTS} redirects from ${shownUrl(from)}: not followed`,
      status,
    );
  }
  return next;
}

/** True when a body can be sent a second time (a string or bytes, not a stream). */
function resendable(body: RequestInit['body']): boolean {
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof Uint8Array ||
    body instanceof ArrayBuffer ||
    body instanceof URLSearchParams
  );
}

function requestUrl(input: string | URL | Request): URL {
  return new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
}

/**
 * `base` bound to `origin`: a request elsewhere is refused before it is sent, redirects
 * are followed by hand within the origin (303, and 301/302 after a POST, become a GET without
 * a body, as fetch does) and refused out of it.
 */
export function hostBoundFetch(base: typeof fetch, origin: string): typeof fetch {
  return async (input, init) => {
    let url = requestUrl(input);
    if (url.origin !== origin) {
      throw new ProviderFailure(
        'bad-request',
        `a request to ${shownUrl(url)} was not sent: model-gate sends requests only to provider.host ${origin}`,
      );
    }
    let target: string | URL | Request = input;
    let options: RequestInit = { ...init, redirect: 'manual' };
    for (let hops = 0; ; hops++) {
      const response = await base(target, options);
      const next = nextHop(response.status, response.headers.get('location'), url, origin, hops);
      if (next === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const method = (
        options.method ?? (target instanceof Request ? target.method : 'GET')
      ).toUpperCase();
      const toGet =
        response.status === 303 ||
        ((response.status === 301 || response.status === 302) && method === 'POST');
      if (toGet) {
        const headers = new Headers(options.headers);
        headers.delete('content-type');
        headers.delete('content-length');
        options = { ...options, method: 'GET', body: null, headers };
      }
      if (target instanceof Request || !resendable(options.body)) {
        throw new ProviderFailure(
          'bad-request',
          `${response.status}: the server at ${shownUrl(url)} redirected a request whose body cannot be sent again: not followed`,
          response.status,
        );
      }
      url = next;
      target = next.href;
    }
  };
}

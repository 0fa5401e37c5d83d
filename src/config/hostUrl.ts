/**
 * The server URL is shown in the terminal, the action log, report.json and summary.md. What
 * in it may be a secret — a password, a user name, a token in the query string — is
 * registered as one as soon as the URL is read (even when it is then refused), and a query
 * string is refused unless `provider.allow-host-query` says the server needs one.
 */
import { registerSecret } from '../text/secrets.js';

/** Query parameter names that carry credentials (`?token=`, `?api_key=`, `?sig=` …). */
const SECRET_NAME = /token|key|secret|auth|sig|pass|pwd|credential|session|jwt|bearer|code/i;
/** A value that reads like a token: long, without spaces, letters and digits mixed. */
const TOKEN_LIKE = /^(?=.*[A-Za-z])(?=.*\d)[A-Za-z0-9._~+/=-]{16,}$/;

/** The URL `value` names, or null when it names none. */
export function parseUrl(value: string): URL | null {
  try {
    return new URL(value);
  } catch {
    return null;
  }
}

export function hasQuery(value: string): boolean {
  const url = parseUrl(value);
  return url !== null && url.search !== '';
}

/**
 * Registers the credentials of `value` and every query value that is named like a credential
 * or reads like a token. A value that is not a URL is searched for `user:password@` anyway.
 */
export function registerUrlSecrets(value: unknown): void {
  if (typeof value !== 'string' || value === '') return;
  const url = parseUrl(value.includes('://') ? value : `http://${value}`);
  if (!url) {
    // Not a URL, yet what stands between the scheme and an "@" may still be a password.
    const at = value.lastIndexOf('@');
    const start = value.includes('://') ? value.indexOf('://') + 3 : 0;
    const userinfo = at > start ? value.slice(start, at) : '';
    registerSecret(userinfo.slice(userinfo.indexOf(':') + 1));
    return;
  }
  registerSecret(url.password);
  registerSecret(decode(url.password));
  // As written (percent-encoded characters stay encoded in the URL) and decoded.
  for (const match of url.search.matchAll(/[?&]([^=&#]*)=([^&#]*)/g)) {
    const name = decode(match[1] ?? '');
    const written = match[2] ?? '';
    const inner = decode(written.replace(/\+/g, ' '));
    if (SECRET_NAME.test(name) || TOKEN_LIKE.test(inner)) {
      registerSecret(written);
      registerSecret(inner);
    }
  }
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The URL without its query, and the query's parameters: the clients add them to each request. */
export function splitHostQuery(host: string): { base: string; query: URLSearchParams } {
  const url = parseUrl(host);
  if (!url || url.search === '') return { base: host, query: new URLSearchParams() };
  const query = new URLSearchParams(url.search);
  url.search = '';
  return { base: url.toString().replace(/\/$/, ''), query };
}

/** `url` with the parameters of `query` added (a parameter it already has is kept). */
export function withQuery(url: string, query: URLSearchParams): string {
  if ([...query.keys()].length === 0) return url;
  const target = new URL(url);
  for (const [name, value] of query) {
    if (!target.searchParams.has(name)) target.searchParams.append(name, value);
  }
  return target.toString();
}

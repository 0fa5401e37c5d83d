/**
 * A fake GitHub REST API on loopback, holding the comments of one pull request: enough of
 * `GET /user`, list (paginated with Link headers), create and update comment for octokit to
 * run its real code against. Tokens decide who is calling:
 *   - `pat-<login>`: a personal token; `GET /user` answers with that login;
 *   - `app`: GITHUB_TOKEN; writes as github-actions[bot], and `GET /user` is forbidden;
 *   - `readonly`: a fork's token; reads work, writes answer 403.
 */
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string; type: string };
}

export interface FakeGitHub {
  url: string;
  comments: FakeComment[];
  /** "METHOD path" of every request received, in order. */
  requests: string[];
  addComment(login: string, body: string): FakeComment;
  close(): Promise<void>;
}

const PER_PAGE_DEFAULT = 30;

function login(token: string | undefined): string | null {
  if (!token) return null;
  if (token === 'app' || token === 'readonly') return 'github-actions[bot]';
  return token.startsWith('pat-') ? token.slice(4) : null;
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? JSON.parse(text) : {};
}

export async function startFakeGitHub(
  owner: string,
  repo: string,
  pull: number,
): Promise<FakeGitHub> {
  const comments: FakeComment[] = [];
  const requests: string[] = [];
  let nextId = 1000;
  let base = '';
  const htmlUrl = (id: number) =>
    `https://github.test/${owner}/${repo}/pull/${pull}#issuecomment-${id}`;
  const view = (c: FakeComment) => ({ ...c, html_url: htmlUrl(c.id) });

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const caller = login(token);
    if (!caller) return send(res, 401, { message: 'Bad credentials' });

    if (req.method === 'GET' && url.pathname === '/user') {
      if (!token?.startsWith('pat-')) {
        return send(res, 403, { message: 'Resource not accessible by integration' });
      }
      return send(res, 200, { login: caller, id: 1, type: 'User' });
    }

    const list = `/repos/${owner}/${repo}/issues/${pull}/comments`;
    if (url.pathname === list && req.method === 'GET') {
      const perPage = Number(url.searchParams.get('per_page') ?? PER_PAGE_DEFAULT);
      const page = Number(url.searchParams.get('page') ?? 1);
      const pages = Math.max(1, Math.ceil(comments.length / perPage));
      const slice = comments.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = {};
      if (page < pages) {
        const next = new URL(url);
        next.searchParams.set('page', String(page + 1));
        const last = new URL(url);
        last.searchParams.set('page', String(pages));
        headers.link = `<${next.href}>; rel="next", <${last.href}>; rel="last"`;
      }
      return send(res, 200, slice.map(view), headers);
    }

    if (req.method === 'POST' && url.pathname === list) {
      if (token === 'readonly')
        return send(res, 403, { message: 'Resource not accessible by integration' });
      const { body } = await readBody(req);
      if (typeof body !== 'string' || body.length > 65_536) {
        return send(res, 422, {
          message: 'Validation Failed',
          errors: [{ field: 'body', code: 'custom' }],
        });
      }
      const comment = {
        id: nextId++,
        body,
        user: { login: caller, type: caller.endsWith('[bot]') ? 'Bot' : 'User' },
      };
      comments.push(comment);
      return send(res, 201, view(comment));
    }

    const edit = new RegExp(`^/repos/${owner}/${repo}/issues/comments/(\\d+)$`).exec(url.pathname);
    if (req.method === 'PATCH' && edit) {
      const comment = comments.find((c) => c.id === Number(edit[1]));
      if (!comment) return send(res, 404, { message: 'Not Found' });
      if (token === 'readonly' || comment.user.login !== caller) {
        return send(res, 403, { message: 'Resource not accessible by integration' });
      }
      const { body } = await readBody(req);
      if (typeof body !== 'string' || body.length > 65_536) {
        return send(res, 422, { message: 'Validation Failed' });
      }
      comment.body = body;
      return send(res, 200, view(comment));
    }
    return send(res, 404, { message: 'Not Found' });
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => send(res, 500, { message: String(error) }));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: base,
    comments,
    requests,
    addComment(author, body) {
      const comment = { id: nextId++, body, user: { login: author, type: 'User' } };
      comments.push(comment);
      return comment;
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

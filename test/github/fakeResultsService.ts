/**
 * A fake of the service `@actions/artifact` uploads to, on loopback: the Twirp artifact API
 * (CreateArtifact → a signed blob URL, FinalizeArtifact → the artifact id) and the blob store
 * behind the URL (Azure block blob: stage blocks, commit the block list). Lets a test run the
 * real DefaultArtifactClient from end to end and read back the zip it uploaded.
 */
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeResultsService {
  url: string;
  /** The runtime token the runner would give: a JWT naming the run and job backends. */
  token: string;
  /** Twirp calls received, with their JSON bodies. */
  calls: { method: string; body: Record<string, unknown> }[];
  /** Committed blobs by path. */
  blobs: Map<string, Buffer>;
  close(): Promise<void>;
}

const ARTIFACT_ID = 31337;

async function body(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function jwt(payload: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'JWT' })}.${part(payload)}.signature`;
}

export async function startFakeResultsService(): Promise<FakeResultsService> {
  const calls: FakeResultsService['calls'] = [];
  const blobs = new Map<string, Buffer>();
  const staged = new Map<string, Buffer>();
  let base = '';

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', base);
    const data = await body(req);
    const twirp = /^\/twirp\/github\.actions\.results\.api\.v1\.ArtifactService\/(\w+)$/.exec(
      url.pathname,
    );
    if (req.method === 'POST' && twirp) {
      const method = twirp[1] ?? '';
      const json = JSON.parse(data.toString('utf8') || '{}') as Record<string, unknown>;
      calls.push({ method, body: json });
      res.writeHead(200, { 'content-type': 'application/json' });
      if (method === 'CreateArtifact') {
        const blob = `${base}/blob/artifacts/${encodeURIComponent(String(json.name))}.zip?sig=fake`;
        return res.end(JSON.stringify({ ok: true, signed_upload_url: blob }));
      }
      if (method === 'FinalizeArtifact') {
        return res.end(JSON.stringify({ ok: true, artifact_id: String(ARTIFACT_ID) }));
      }
      res.writeHead(404);
      return res.end('{}');
    }
    if (req.method === 'PUT' && url.pathname.startsWith('/blob/')) {
      const comp = url.searchParams.get('comp');
      const headers = { 'x-ms-request-id': 'fake', 'x-ms-version': '2024-11-04' };
      if (comp === 'block') {
        staged.set(`${url.pathname}#${url.searchParams.get('blockid')}`, data);
        res.writeHead(201, headers);
        return res.end();
      }
      if (comp === 'blocklist') {
        const ids = [
          ...data.toString('utf8').matchAll(/<(?:Latest|Uncommitted|Committed)>([^<]+)</g),
        ].map((m) => m[1]);
        blobs.set(
          url.pathname,
          Buffer.concat(ids.map((id) => staged.get(`${url.pathname}#${id}`) ?? Buffer.alloc(0))),
        );
        res.writeHead(201, { ...headers, etag: '"1"' });
        return res.end();
      }
      blobs.set(url.pathname, data);
      res.writeHead(201, headers);
      return res.end();
    }
    res.writeHead(404);
    res.end();
  };

  const server = createServer((req, res) => {
    handle(req, res).catch(() => {
      res.writeHead(500);
      res.end();
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    token: jwt({ scp: 'Actions.ExampleScope Actions.Results:run-backend-1:job-backend-2' }),
    calls,
    blobs,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

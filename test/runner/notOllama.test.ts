import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { InfrastructureError } from '../../src/errors.js';
import { OllamaProvider } from '../../src/providers/ollama.js';
import { checkServer } from '../../src/runner/preflight.js';

let server: Server | null = null;
afterEach(async () => {
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  server = null;
});

async function serve(handler: RequestListener): Promise<string> {
  server = createServer(handler);
  await new Promise<void>((done) => server?.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function refusal(host: string): Promise<InfrastructureError> {
  const provider = new OllamaProvider({ host, timeoutMs: 2000, keepAlive: '5m' });
  const error = await checkServer(provider).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InfrastructureError);
  expect((error as InfrastructureError).exitCode).toBe(3);
  return error as InfrastructureError;
}

const PAGE = `<!doctype html><html><head><title>Welcome to nginx!</title></head><body>${'<p>hello</p>'.repeat(500)}</body></html>`;

describe('a server that answers but is not Ollama', () => {
  it('a web server: its status and page title, never the page, and no "ollama serve"', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
    });
    const error = await refusal(url);
    expect(error.message).toBe(
      `${url} answered but is not an Ollama server (got text/html, 200 OK: an HTML page titled "Welcome to nginx!" for GET /api/version)`,
    );
    expect(error.hint).toBe(
      'point provider.host / OLLAMA_HOST at the Ollama server (it listens on port 11434 unless told otherwise), or set provider.kind to the API the server speaks',
    );
  });

  it('an error page of a web server is shown by its title too', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><head><title>404 Not Found</title></head><body><h1>404</h1></body></html>');
    });
    expect((await refusal(url)).message).toBe(
      `${url} answered but is not an Ollama server (got text/html, 404 Not Found: an HTML page titled "404 Not Found" for GET /api/version)`,
    );
  });

  it('an OpenAI-compatible server: suggests provider.kind openai, naming what it serves', async () => {
    const url = await serve((req, res) => {
      res.writeHead(req.url === '/v1/models' ? 200 : 404, { 'content-type': 'application/json' });
      res.end(
        req.url === '/v1/models'
          ? JSON.stringify({ object: 'list', data: [{ id: 'Qwen/Qwen2.5-7B', object: 'model' }] })
          : '{"detail":"Not Found"}',
      );
    });
    const error = await refusal(url);
    expect(error.message).toBe(
      `${url} answered but is not an Ollama server (got application/json, 404 Not Found: {"detail":"Not Found"} for GET /api/version)`,
    );
    expect(error.hint).toBe(
      "it answers GET /v1/models as an OpenAI-compatible server does (Qwen/Qwen2.5-7B): set provider.kind: openai in model-gate.yml (the action's provider input: openai)",
    );
  });

  it('a closed port is still "cannot reach", with the hint to start Ollama', async () => {
    const url = await serve(() => undefined);
    await new Promise<void>((done) => server?.close(() => done()));
    server = null;
    const error = await refusal(url);
    expect(error.message).toMatch(new RegExp(`^cannot reach the model server at ${url}: `));
    expect(error.hint).toMatch(/^start it \(ollama serve\)/);
  });
});

it('an HTML error page in reply to a request is quoted by its title, never whole', async () => {
  const url = await serve((_req, res) => {
    res.writeHead(502, { 'content-type': 'text/html' });
    res.end(
      '<html><head><title>502 Bad Gateway</title></head><body>' +
        'x'.repeat(4000) +
        '</body></html>',
    );
  });
  const provider = new OllamaProvider({ host: url, timeoutMs: 2000, keepAlive: '5m' });
  const chat = provider.chat({
    model: 'm:1',
    messages: [{ role: 'user', content: 'hi' }],
    options: { temperature: 0, seed: 0, numCtx: 256, numPredict: 1, think: false },
  });
  await expect(chat).rejects.toThrow('502 an HTML page titled "502 Bad Gateway"');
  await expect(provider.loadedModels()).rejects.toThrow(
    /^502 an HTML page titled "502 Bad Gateway"$/,
  );
});

/**
 * The simulator: a loopback HTTP server speaking the Ollama API subset model-gate uses and
 * the OpenAI chat completions API, answering with scripted models from a scenario. It is a
 * test double, labelled simulated everywhere it can be (version, family, a response header).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Behaviour } from './behaviour.js';
import { behaviours as defaultBehaviours } from './behaviours/index.js';
import { embedText } from './embedding.js';
import {
  admit,
  findModel,
  type Generation,
  SimulatedHttpError,
  type SimulatorState,
  type SimulatorStats,
  startGeneration,
} from './generation.js';
import {
  loadScenario,
  normaliseModelName,
  type Scenario,
  type SimulatedModel,
} from './scenario.js';
import { QueueFull, Slots } from './slots.js';
import { residency } from './timing.js';
import {
  type Endpoint,
  type ParsedRequest,
  isObject,
  ollamaChunks,
  ollamaReply,
  openaiError,
  openaiReply,
  parseGenerationRequest,
} from './wire.js';

export interface SimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  /** A parsed scenario or the path of a scenario file. */
  scenario: Scenario | string;
  /** Replaces the registered behaviours (tests use this to script answers). */
  behaviours?: readonly Behaviour[];
}

export interface RunningSimulator {
  /** Base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  port: number;
  scenario: Scenario;
  stats(): SimulatorStats;
  /** Busy slot-milliseconds and the span they fall in (see `Slots.usage`). */
  slotUsage(): { busySlotMs: number; spanMs: number };
  close(): Promise<void>;
}

export const SIMULATOR_HEADER = 'x-model-gate-simulator';
const MAX_BODY_BYTES = 16 * 1024 * 1024;

export async function startSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const behaviours = options.behaviours ?? defaultBehaviours;
  const scenario =
    typeof options.scenario === 'string'
      ? loadScenario(options.scenario, behaviours)
      : options.scenario;
  const state: SimulatorState = {
    scenario,
    behaviours,
    slots: new Slots(scenario.parallel, scenario.maxQueue),
    loaded: [...scenario.loaded],
    loadedContext: new Map(scenario.loaded.map((m) => [m, null])),
    arrivals: new Map(),
    attempts: new Map(),
    clock: { requests: 0, seconds: 0 },
    completions: 0,
    stats: { requests: {}, order: [], loads: 0, maxInFlight: 0, unloads: [] },
  };

  const server = createServer((req, res) => {
    res.setHeader(SIMULATOR_HEADER, 'simulated models, not a language model server');
    route(state, req, res).catch((error: unknown) => {
      // A handler bug must not take the server down; the client sees a 500.
      if (!res.headersSent) sendJson(res, 500, { error: String(error) });
      else res.destroy();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    scenario,
    stats: () => structuredClone(state.stats),
    slotUsage: () => state.slots.usage(),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function route(
  state: SimulatorState,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://simulator').pathname;
  const method = req.method ?? 'GET';
  if (path === '/' && (method === 'GET' || method === 'HEAD')) {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end(method === 'HEAD' ? undefined : 'Ollama is running');
    return;
  }
  const listing = method === 'GET' ? LISTINGS[path] : undefined;
  if (listing) return sendJson(res, 200, listing(state));
  if (method !== 'POST') return sendJson(res, 405, { error: 'method not allowed' });

  const endpoint = GENERATION_ENDPOINTS[path] ?? null;
  const body = await readJson(req).catch((error: Error) => error);
  if (body instanceof Error || !isObject(body)) {
    const message = body instanceof Error ? body.message : 'expected a JSON object';
    return sendError(res, endpoint, 400, message);
  }
  if (endpoint === 'generate' && isUnloadRequest(body)) return unload(state, body, res);
  if (endpoint) return serveGeneration(state, endpoint, body, req, res);
  if (path === '/api/show') {
    const name = typeof body.model === 'string' ? body.model : body.name;
    const model = typeof name === 'string' ? findModel(state, name) : null;
    if (!model) return notFound(res, name);
    return sendJson(res, 200, showEntry(model));
  }
  if (path === '/api/embed') return serveEmbed(state, body, res);
  return sendJson(res, 404, { error: `${path} not found` });
}

/** The GET endpoints that list what the server has, and their replies. */
const LISTINGS: Partial<Record<string, (state: SimulatorState) => unknown>> = {
  '/api/version': (state) => ({ version: state.scenario.version }),
  '/api/tags': (state) => ({
    models: state.scenario.models.map((m) => ({
      ...tagEntry(m),
      modified_at: '2025-01-01T00:00:00Z',
    })),
  }),
  '/api/ps': (state) => ({
    models: state.loaded.map((name) => {
      const m = findModel(state, name) ?? placeholder(name);
      const { size, sizeVram } = residency(m.timing);
      return {
        ...tagEntry(m),
        size,
        expires_at: '2099-01-01T00:00:00Z',
        size_vram: sizeVram,
        // The context a model was loaded with, as Ollama reports it; its default otherwise.
        context_length: state.loadedContext.get(m.name) ?? m.contextLength,
      };
    }),
  }),
  '/v1/models': (state) => ({
    object: 'list',
    data: state.scenario.models.map((m) => ({
      id: m.name,
      object: 'model',
      created: 0,
      owned_by: 'simulated',
    })),
  }),
};

function serveEmbed(state: SimulatorState, body: Record<string, unknown>, res: ServerResponse) {
  const model = typeof body.model === 'string' ? findModel(state, body.model) : null;
  if (!model) return notFound(res, body.model);
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (!Array.isArray(input) || !input.every((t) => typeof t === 'string')) {
    sendJson(res, 400, { error: 'input must be a string or a list of strings' });
    return;
  }
  sendJson(res, 200, {
    model: model.name,
    embeddings: input.map(embedText),
    total_duration: 0,
    load_duration: 0,
    prompt_eval_count: input.join(' ').length,
  });
}

/** Ollama frees a model on a generate request with keep_alive 0 and nothing to generate. */
function unload(state: SimulatorState, body: Record<string, unknown>, res: ServerResponse) {
  const name = normaliseModelName(String(body.model));
  if (!findModel(state, name) && !state.loaded.includes(name)) return notFound(res, body.model);
  state.loaded = state.loaded.filter((m) => m !== name);
  state.loadedContext.delete(name);
  state.stats.unloads.push(name);
  sendJson(res, 200, {
    model: body.model,
    created_at: new Date().toISOString(),
    response: '',
    done: true,
    done_reason: 'unload',
  });
}

async function serveGeneration(
  state: SimulatorState,
  endpoint: Endpoint,
  body: Record<string, unknown>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('client went away'));
  });
  const fail = (status: number, message: string): void => sendError(res, endpoint, status, message);

  let generation: Generation;
  let parsed: ParsedRequest;
  try {
    parsed = parseGenerationRequest(endpoint, body);
    if (endpoint === 'openai' && parsed.stream) {
      throw new SimulatedHttpError(400, 'the simulator does not stream /v1 responses');
    }
    generation = admit(state, parsed.generation);
    if (generation.faults.some((f) => f.kind === 'drop' && !f.midStream)) {
      req.socket.destroy();
      return;
    }
  } catch (error) {
    if (error instanceof SimulatedHttpError) return fail(error.status, error.message);
    throw error;
  }

  let release: () => void;
  try {
    release = await state.slots.acquire(gone.signal);
  } catch (error) {
    if (error instanceof QueueFull) fail(503, error.message);
    return;
  }
  state.stats.maxInFlight = state.slots.maxBusy;
  try {
    const g = startGeneration(state, generation, parsed.generation.numCtx);
    await pause(g.headerDelayMs + g.loadMs, gone.signal);
    if (endpoint === 'openai') {
      await pause(g.promptMs + g.latencyMs, gone.signal);
      const reply = openaiReply(g, ++state.completions, new Date());
      return finishWhole(res, g, JSON.stringify(reply), fail);
    }
    const createdAt = new Date().toISOString();
    if (!parsed.stream) {
      await pause(g.promptMs + g.latencyMs, gone.signal);
      return finishWhole(res, g, JSON.stringify(ollamaReply(endpoint, g, createdAt)), fail);
    }
    await streamChunks(res, g, ollamaChunks(endpoint, g, createdAt), gone.signal);
  } catch (error) {
    if (!gone.signal.aborted) throw error;
  } finally {
    release();
  }
}

/**
 * Waits `ms`; none at all for a model without latency, where a zero timer would still cost a
 * turn of the event loop's timer phase (about a millisecond) on every request.
 */
async function pause(ms: number, signal: AbortSignal): Promise<void> {
  signal.throwIfAborted();
  await sleepUntil(performance.now() + ms, signal);
}

/**
 * Sleeps until `due` (a performance.now() time): a timer counts whole milliseconds and may
 * fire a fraction early, so one timer is not always enough.
 */
async function sleepUntil(due: number, signal: AbortSignal): Promise<void> {
  for (let wait = due - performance.now(); wait > 0; wait = due - performance.now()) {
    await sleep(Math.ceil(wait), undefined, { signal });
  }
}

function finishWhole(
  res: ServerResponse,
  g: Generation,
  body: string,
  fail: (status: number, message: string) => void,
): void {
  if (g.faults.some((f) => f.kind === 'mid-stream-error')) {
    // Without streaming the server has not sent headers yet, so the failure is a plain 500.
    fail(500, mid(g));
    return;
  }
  if (g.faults.some((f) => f.kind === 'drop')) {
    res.socket?.destroy();
    return;
  }
  const malformed = g.faults.some((f) => f.kind === 'malformed-json');
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
  res.end(malformed ? body.slice(0, Math.max(1, Math.floor(body.length / 2))) : body);
}

async function streamChunks(
  res: ServerResponse,
  g: Generation,
  chunks: Record<string, unknown>[],
  signal: AbortSignal,
): Promise<void> {
  res.writeHead(200, { 'content-type': 'application/x-ndjson' });
  // Each chunk is due at a fixed point of the generation time; sleeping until that point
  // (not for a slice) keeps timer overshoot from adding up over the chunks. Chunks already
  // due go out in one write: without latency that is the whole answer at once, instead of a
  // system call per chunk.
  // Decoding starts once the prompt is read (a sleeping timed model's prompt time).
  const decoding = performance.now() + g.promptMs;
  let pending = '';
  const flush = () => {
    if (pending !== '') res.write(pending);
    pending = '';
  };
  for (const [index, chunk] of chunks.entries()) {
    const due = decoding + (g.latencyMs * (index + 1)) / chunks.length;
    if (due > performance.now()) {
      flush();
      await sleepUntil(due, signal);
    }
    const line = JSON.stringify(chunk);
    if (index === 1 || chunks.length === 1) {
      if (g.faults.some((f) => f.kind === 'mid-stream-error')) {
        res.end(`${pending}${JSON.stringify({ error: mid(g) })}\n`);
        return;
      }
      if (g.faults.some((f) => f.kind === 'drop')) {
        flush();
        res.socket?.destroy();
        return;
      }
      if (g.faults.some((f) => f.kind === 'malformed-json')) {
        pending += `${line.slice(0, Math.floor(line.length / 2))}\n`;
        continue;
      }
    }
    pending += `${line}\n`;
  }
  res.end(pending);
}

function mid(g: Generation): string {
  const fault = g.faults.find((f) => f.kind === 'mid-stream-error');
  return (
    (fault?.kind === 'mid-stream-error' ? fault.message : undefined) ??
    'an error was encountered while running the model: unexpected EOF (simulated fault)'
  );
}

const GENERATION_ENDPOINTS: Partial<Record<string, Endpoint>> = {
  '/api/chat': 'chat',
  '/api/generate': 'generate',
  '/v1/chat/completions': 'openai',
};

function details(m: SimulatedModel): Record<string, unknown> {
  return {
    parent_model: '',
    format: 'gguf',
    family: m.family,
    families: [m.family],
    parameter_size: m.parameterSize,
    quantization_level: m.quantizationLevel,
  };
}

/** A model as /api/tags lists it; /api/ps adds its residency. */
function tagEntry(m: SimulatedModel): Record<string, unknown> {
  return { name: m.name, model: m.name, size: 1_000_000, digest: m.digest, details: details(m) };
}

function showEntry(m: SimulatedModel): Record<string, unknown> {
  return {
    license: 'simulated model: scripted answers for tests, not a language model',
    modelfile: `# simulated model ${m.name}`,
    parameters: '',
    template: '{{ .Prompt }}',
    details: details(m),
    model_info: {
      'general.architecture': m.family,
      'general.basename': 'simulated',
      [`${m.family}.context_length`]: m.contextLength,
    },
    capabilities: m.thinking ? ['completion', 'thinking'] : ['completion'],
    modified_at: '2025-01-01T00:00:00Z',
  };
}

/** /api/ps may list a model the scenario does not serve (another user's model). */
function placeholder(name: string): SimulatedModel {
  return {
    name,
    digest: '0'.repeat(64),
    family: 'simulated',
    parameterSize: 'unknown',
    quantizationLevel: 'unknown',
    contextLength: 4096,
    thinking: false,
    latencyMs: 0,
    timing: null,
    faults: [],
    behaviours: {},
  };
}

function isUnloadRequest(body: Record<string, unknown>): boolean {
  const keepAlive = body.keep_alive;
  const zero = keepAlive === 0 || keepAlive === '0' || keepAlive === '0s';
  return zero && typeof body.model === 'string' && !body.prompt && !body.messages;
}

function notFound(res: ServerResponse, name: unknown): void {
  sendJson(res, 404, { error: `model '${String(name)}' not found` });
}

/** An error in the shape of the endpoint's API: OpenAI's error object, or Ollama's. */
function sendError(
  res: ServerResponse,
  endpoint: Endpoint | null,
  status: number,
  message: string,
) {
  sendJson(res, status, endpoint === 'openai' ? openaiError(status, message) : { error: message });
}

function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const part of req) {
    const buffer = part as Buffer;
    size += buffer.length;
    if (size > MAX_BODY_BYTES) throw new Error('request body too large');
    parts.push(buffer);
  }
  const text = Buffer.concat(parts).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new Error('invalid character in request body: expected JSON');
  }
}

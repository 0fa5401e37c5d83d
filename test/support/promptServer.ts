/**
 * A stand-in for an OpenAI-compatible server that knows a fixed set of prompts: it answers each
 * prompt it recognises (system and user message, verbatim) with what the test's script says
 * for that model, seed and temperature, and anything else with a refusal text. It counts every
 * request, so a test can say that nothing was sent.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface PromptCall {
  model: string;
  seed: number;
  temperature: number;
  maxTokens: number | null;
}

/** What a model answers to one prompt. */
export type PromptScript = (call: PromptCall) => string;

export interface PromptServer {
  url: string;
  /** Requests of any kind received so far. */
  requests: number;
  /** Chat requests whose prompt the server did not know. */
  unrecognised: number;
  /** Chat requests whose prompt it knew: the items' samples. */
  recognised: number;
  close(): Promise<void>;
}

export function promptKey(system: string | null, user: string): string {
  return JSON.stringify([system, user]);
}

interface ChatBody {
  model?: string;
  messages?: { role: string; content: string }[];
  seed?: number;
  temperature?: number;
  max_tokens?: number;
}

export async function startPromptServer(
  models: readonly string[],
  scripts: ReadonlyMap<string, PromptScript>,
): Promise<PromptServer> {
  const state = { requests: 0, unrecognised: 0, recognised: 0 };
  const server = createServer((request, response) => {
    state.requests++;
    void handle(request, response);
  });
  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    if (request.method === 'GET' && request.url === '/v1/models') {
      send(200, {
        object: 'list',
        data: models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'test' })),
      });
      return;
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      send(404, { error: { message: 'not found' } });
      return;
    }
    let text = '';
    for await (const chunk of request) text += chunk;
    const body = JSON.parse(text) as ChatBody;
    const messages = body.messages ?? [];
    const system = messages.find((m) => m.role === 'system')?.content ?? null;
    const user = messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
    const script = scripts.get(promptKey(system, user));
    if (script) state.recognised++;
    else state.unrecognised++;
    const content = script
      ? script({
          model: body.model ?? '',
          seed: body.seed ?? 0,
          temperature: body.temperature ?? 1,
          maxTokens: body.max_tokens ?? null,
        })
      : 'I do not recognise this question.';
    send(200, {
      id: `chat-${state.requests}`,
      object: 'chat.completion',
      created: 0,
      model: body.model,
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
      usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
    });
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get requests() {
      return state.requests;
    },
    get unrecognised() {
      return state.unrecognised;
    },
    get recognised() {
      return state.recognised;
    },
    close: () =>
      new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}

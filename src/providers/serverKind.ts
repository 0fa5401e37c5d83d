/**
 * What answered at provider.host when it did not answer as an Ollama server: a web server's
 * page, or a server that speaks the OpenAI API (vLLM, llama.cpp server) named without
 * `provider.kind: openai`. Told apart from "nothing listens" so that the message names the
 * fix, and shown as a status line and a title: a page's body is never pasted into a message.
 */
import { hostBoundFetch } from './httpPolicy.js';
import { startDeadline } from './deadline.js';
import { ollamaApiUrl } from './ollamaChat.js';
import { bodyLine, readTextUpTo } from './replyLimit.js';
import { neutralise } from '../text/neutralise.js';

/** Bytes of a probe's answer read: a version, a model list's start, a page's head. */
const PROBE_BYTES = 16 * 1024;
/** Characters of a served model's name shown. */
const LINE_SHOWN = 80;
/** Served models named in the hint. */
const MODELS_SHOWN = 3;

interface Probe {
  status: number;
  statusText: string;
  contentType: string;
  text: string;
}

async function probe(url: string, timeoutMs: number): Promise<Probe | null> {
  const deadline = startDeadline(timeoutMs);
  try {
    const response = await hostBoundFetch(fetch, new URL(url).origin)(url, {
      signal: deadline.signal,
    });
    return {
      status: response.status,
      statusText: response.statusText,
      contentType: response.headers.get('content-type')?.split(';')[0]?.trim() || 'no type',
      text: await readTextUpTo(response, PROBE_BYTES),
    };
  } catch {
    return null;
  } finally {
    deadline.dispose();
  }
}

function json(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The models an OpenAI-compatible `/v1/models` lists, or null when it is not such a list. */
function openAiModels(answer: Probe | null): string[] | null {
  if (answer === null || answer.status !== 200) return null;
  const data = (json(answer.text) as { data?: unknown } | undefined)?.data;
  if (!Array.isArray(data)) return null;
  return data.flatMap((m: unknown) => {
    const id = (m as { id?: unknown } | null)?.id;
    return typeof id === 'string' ? [id] : [];
  });
}

/**
 * Why the server at `host` is not an Ollama server, with the fix, or null when it answers
 * `/api/version` as Ollama does (or not at all): the failure seen stands then.
 */
export async function notOllama(
  host: string,
  timeoutMs: number,
): Promise<{ message: string; hint: string } | null> {
  const versionUrl = ollamaApiUrl(host, 'version');
  const version = await probe(versionUrl, timeoutMs);
  if (version === null) return null;
  const said = (json(version.text) as { version?: unknown } | undefined)?.version;
  if (version.status === 200 && typeof said === 'string') return null;
  const line = bodyLine(version.text, version.contentType);
  const got = `${version.contentType}, ${version.status} ${version.statusText}`.trim();
  const message = `${shownHost(host)} answered but is not an Ollama server (got ${got}${line ? `: ${line}` : ''} for GET /api/version)`;
  const modelsUrl = new URL(versionUrl);
  modelsUrl.pathname = modelsUrl.pathname.replace(/\/api\/version$/, '/v1/models');
  const models = openAiModels(await probe(modelsUrl.href, timeoutMs));
  if (models !== null) {
    const named = models.slice(0, MODELS_SHOWN).map((m) => neutralise(m, LINE_SHOWN));
    const more = models.length > MODELS_SHOWN ? ', …' : '';
    return {
      message,
      hint: `it answers GET /v1/models as an OpenAI-compatible server does${named.length > 0 ? ` (${named.join(', ')}${more})` : ''}: set provider.kind: openai in model-gate.yml (the action's provider input: openai)`,
    };
  }
  return {
    message,
    hint: 'point provider.host / OLLAMA_HOST at the Ollama server (it listens on port 11434 unless told otherwise), or set provider.kind to the API the server speaks',
  };
}

function shownHost(host: string): string {
  const url = new URL(host);
  return `${url.origin}${url.pathname === '/' ? '' : url.pathname}`;
}

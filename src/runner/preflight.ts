/**
 * What the runner checks before it calls a model: the server answers, every model exists
 * (with the command that fetches a missing one), which models are loaded, and a warm-up call
 * that pays the model's load time outside the measurement.
 */
import { InfrastructureError } from '../errors.js';
import type {
  ChatRequest,
  ModelMetadata,
  Provider,
  RunningModel,
  SeriesHygiene,
  ServerInfo,
} from '../providers/types.js';
import { nearTags, servedTags, withTag } from '../providers/modelTag.js';
import { neutralise } from '../text/neutralise.js';
import { ProviderFailure } from '../providers/types.js';
import { notOllama } from '../providers/serverKind.js';
import { errorMessage } from '../text/format.js';

const WARMUP_PROMPT = 'Reply with the single word: ready.';

export type Warn = (message: string) => void;

/** What to do about a server that does not answer, in the words of each provider. */
const SERVER_HINT: Record<ServerInfo['provider'], string> = {
  ollama:
    'start it (ollama serve) or point provider.host / OLLAMA_HOST at it; no server yet? model-gate simulate starts a simulated one, and model-gate demo runs the whole job against it',
  openai:
    'start the OpenAI-compatible server (vLLM, llama.cpp server, LM Studio…) or correct provider.host (its base URL, with or without /v1)',
  embedded:
    'the embedded engine (node-llama-cpp) did not load: check that it is installed for this platform and, with provider.gpu, that its GPU build is (docs/embedded.md)',
};

/** Limit of each request that asks what answered in place of an Ollama server. */
const PROBE_TIMEOUT_MS = 5000;

export async function checkServer(provider: Provider): Promise<ServerInfo> {
  let version: string | null;
  try {
    version = await provider.version();
  } catch (error) {
    const failure = asFailure(error);
    const answered = !['unreachable', 'timeout', 'cancelled'].includes(failure.kind);
    const other =
      answered && provider.info.provider === 'ollama'
        ? await notOllama(provider.info.host, PROBE_TIMEOUT_MS)
        : null;
    if (other) throw new InfrastructureError(other.message, other.hint);
    throw new InfrastructureError(
      `cannot reach the model server at ${provider.info.host}: ${failure.message}`,
      SERVER_HINT[provider.info.provider],
    );
  }
  return {
    ...provider.info,
    version,
    simulated: provider.info.simulated || (version?.includes('simulated') ?? false),
  };
}

export async function checkModel(provider: Provider, model: string): Promise<ModelMetadata> {
  try {
    return await provider.describe(model);
  } catch (error) {
    const failure = asFailure(error);
    if (failure.kind === 'model-missing' && provider.info.provider === 'embedded') {
      throw new InfrastructureError(
        `model '${model}' cannot be loaded by the embedded provider: ${failure.message}`,
        "give models.baseline / models.candidate as a .gguf path (a relative one is read from the config file's folder) or as a tag pulled with ollama pull on this runner",
      );
    }
    if (failure.kind === 'model-missing') throw missingModel(provider, model, failure.served);
    throw new InfrastructureError(
      `cannot read the metadata of model '${model}' from ${provider.info.host}: ${failure.message}`,
    );
  }
}

/**
 * A model the server does not have: the tags it has, the nearest first, and the one meant
 * when a tag is a typo away; the command that fetches the model only when none is near.
 */
function missingModel(
  provider: Provider,
  model: string,
  served: readonly string[] | null,
): InfrastructureError {
  const listed = served === null ? '' : `; ${servedTags(model, served, 'it')}`;
  const message = `model '${model}' is not available on the server at ${provider.info.host}${listed}`;
  const near = served === null ? undefined : nearTags(model, served)[0];
  if (near !== undefined) {
    return new InfrastructureError(
      message,
      `did you mean ${neutralise(near, 120)}? correct models.baseline / models.candidate`,
    );
  }
  return new InfrastructureError(
    message,
    provider.info.provider === 'ollama'
      ? `ollama pull ${model}`
      : 'load the model in the server, or correct models.baseline / models.candidate',
  );
}

export async function loadedModels(provider: Provider, warn: Warn): Promise<string[] | null> {
  try {
    return await provider.loadedModels();
  } catch (error) {
    warn(`could not list the models loaded on the server: ${asFailure(error).message}`);
    return null;
  }
}

/** The loaded models that are not the run's (another user's, another job's). */
export function foreignModels(loaded: readonly string[] | null, ours: readonly string[]): string[] {
  const tagged = new Set(ours.map(withTag));
  return (loaded ?? []).filter((m) => !tagged.has(withTag(m)));
}

export function warnForeignModels(foreign: readonly string[], warn: Warn): void {
  if (foreign.length > 0) {
    warn(
      `another model is loaded on the server (${foreign.join(', ')}): it shares memory and compute with the measured models and may slow or perturb the run`,
    );
  }
}

/**
 * Before a series: which other models hold server memory, and with `unloadOthers` a request
 * to free each (Ollama keep_alive 0). A model that will not unload is warned about, never fatal.
 */
export async function seriesHygiene(
  provider: Provider,
  model: string,
  ours: readonly string[],
  unloadOthers: boolean,
  warn: Warn,
): Promise<SeriesHygiene> {
  const loaded = await loadedModels(provider, warn);
  const others = loaded?.filter((m) => withTag(m) !== withTag(model)) ?? null;
  const unloaded: string[] = [];
  if (unloadOthers && others && others.length > 0 && !provider.unloadModel) {
    warn(`runner.unload-others: the ${provider.info.provider} server cannot unload models`);
  }
  for (const other of unloadOthers && provider.unloadModel ? (others ?? []) : []) {
    try {
      await provider.unloadModel?.(other);
      unloaded.push(other);
    } catch (error) {
      warn(`could not unload ${other} before the series of ${model}: ${asFailure(error).message}`);
    }
  }
  const foreign = foreignModels(loaded, ours);
  warnForeignModels(
    foreign.filter((m) => !unloaded.includes(m)),
    warn,
  );
  return { model, othersLoaded: others, foreign, unloaded, contextLength: null };
}

/** Bytes of a loaded model in memory and in GPU memory, as the sample log records them. */
export interface Residency {
  size: number;
  size_vram: number;
}

/** The server's entry for a loaded model (Ollama /api/ps), or null when it does not say. */
export async function runningEntry(
  provider: Provider,
  model: string,
): Promise<RunningModel | null> {
  try {
    const running = (await provider.running?.()) ?? [];
    return running.find((m) => withTag(m.name) === withTag(model)) ?? null;
  } catch {
    return null;
  }
}

/** Where a loaded model sits, or null when the server does not say. */
export async function residencyOf(provider: Provider, model: string): Promise<Residency | null> {
  const found = await runningEntry(provider, model);
  const whole = (n: number | null | undefined): n is number =>
    typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
  return whole(found?.size) && whole(found?.sizeVram)
    ? { size: found.size, size_vram: found.sizeVram }
    : null;
}

export async function warmUp(
  provider: Provider,
  model: string,
  numCtx: number,
  timeoutMs: number,
  signal: AbortSignal,
  warn: Warn,
): Promise<void> {
  const request: ChatRequest = {
    model,
    messages: [{ role: 'user', content: WARMUP_PROMPT }],
    options: { temperature: 0, seed: 0, numCtx, numPredict: 1, think: false },
  };
  try {
    await provider.chat(request, signal, timeoutMs);
  } catch (error) {
    const failure = asFailure(error);
    if (failure.kind !== 'cancelled') {
      warn(
        `warm-up of ${model} failed (${failure.kind}: ${failure.message}); the first calls may include its load time`,
      );
    }
  }
}

/**
 * The model was re-pulled (another digest) or removed while the run measured it: records of
 * two sets of weights must not meet in one report, and every further request would answer
 * "model missing". The run stops at once (exit 3). A server that does not answer the
 * question is returned as its failure.
 */
export async function modelChanged(
  provider: Provider,
  model: string,
  digest: string | null,
): Promise<InfrastructureError | ProviderFailure | null> {
  let now: ModelMetadata;
  try {
    now = await provider.describe(model);
  } catch (error) {
    const failure = asFailure(error);
    // Any other failure is the server's, not the model's: the caller ends the run as such.
    if (failure.kind !== 'model-missing') return failure;
    return new InfrastructureError(
      `model '${model}' is not available on the server at ${provider.info.host}: it disappeared during the run`,
      `${provider.info.provider === 'ollama' ? `ollama pull ${model}` : 'load the model in the server'}; finished outcomes are in the sample log, run the same command again to resume`,
    );
  }
  if (digest === null || now.digest === null || now.digest === digest) return null;
  return new InfrastructureError(
    `${model} was re-pulled during the run: digest ${digest.slice(0, 12)} → ${now.digest.slice(0, 12)}`,
    'records of the old weights stay in the sample log under their digest and are not mixed with the new ones; run again to measure the model now on the server',
  );
}

export function asFailure(error: unknown): ProviderFailure {
  if (error instanceof ProviderFailure) return error;
  return new ProviderFailure('server-error', errorMessage(error));
}

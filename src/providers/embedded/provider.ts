/**
 * The `embedded` provider: llama.cpp in this process through node-llama-cpp, no server.
 *
 * Choices that matter on CPU:
 * - one model loaded at a time (the runner works model-major), its chat wrapper resolved once
 *   from the model's own chat template, and one context reused across requests;
 * - every request starts from an empty context (history cleared), so an answer depends on the
 *   request only, never on what ran before: temperature 0 gives the same text in any process,
 *   and a seed replays at any temperature;
 * - sampling is plain temperature sampling over the whole vocabulary (no top-k / top-p cut),
 *   the distribution the exact estimator computes with;
 * - requests run one at a time (one context); concurrency above 1 only queues.
 *
 * node-llama-cpp is imported on first use, so the rest of the tool never loads the native
 * library, and it is told never to download or compile anything: the prebuilt binary of the
 * installed platform package is used as it is, or the request fails with a clear message.
 */
import type {
  ChatHistoryItem,
  ChatWrapper,
  Llama,
  LlamaContext,
  LlamaContextSequence,
  LlamaEmbeddingContext,
  LlamaGrammar,
  LlamaModel,
  Token,
} from 'node-llama-cpp';
import { type Deadline, underDeadline } from '../deadline.js';
import {
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type JsonSchema,
  type ModelMetadata,
  type Provider,
  ProviderFailure,
  type ServerInfo,
} from '../types.js';
import { type ModelFile, describeModelFile, resolveModelFile } from './modelFile.js';
import {
  type AnswerGrammar,
  UnsupportedSchemaError,
  compileAnswerGrammar,
} from './schemaGrammar.js';
import { type NodeLlamaCpp, loadEngine } from './engine.js';
import { defaultThreads } from './threads.js';
import { errorMessage } from '../../text/format.js';
import type { EmbeddedGpu } from '../../config/schema.js';

export interface EmbeddedProviderOptions {
  /** Per-request limit, queue time included. */
  timeoutMs: number;
  /** CPU threads; physical cores when absent. */
  threads?: number;
  /** 'off' unless a GPU build is installed (see docs/embedded.md). */
  gpu?: EmbeddedGpu;
  /** Ollama store root for tag references. */
  ollamaStore: string;
  /** Folder that relative .gguf paths resolve against. */
  baseDir: string;
}

/** One token that may come next at the answer position, with its log-probability at T=1. */
export interface NextTokenCandidate {
  text: string;
  logprob: number;
}

export interface AnswerDistribution {
  /** Text of the answer before the position (the fixed prefix, e.g. `{"answer": "`). */
  prefix: string;
  candidates: NextTokenCandidate[];
  promptTokens: number;
  latencyMs: number;
}

interface LoadedModel {
  file: ModelFile;
  model: LlamaModel;
  chatWrapper: ChatWrapper;
  context: LlamaContext | null;
  contextSize: number;
  sequence: LlamaContextSequence | null;
  embedding: LlamaEmbeddingContext | null;
  grammars: Map<string, LlamaGrammar>;
  tokenTexts: Map<Token, string>;
}

export const EMBEDDED_HOST = 'in-process';

export class EmbeddedProvider implements Provider {
  readonly info: ServerInfo;
  readonly threads: number;
  private library: Promise<{ lib: NodeLlamaCpp; llama: Llama }> | null = null;
  private loaded: LoadedModel | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private readonly answerGrammars = new Map<string, AnswerGrammar>();

  constructor(private readonly options: EmbeddedProviderOptions) {
    this.threads = defaultThreads(options.threads);
    this.info = { provider: 'embedded', host: EMBEDDED_HOST, version: null, simulated: false };
  }

  async chat(
    request: ChatRequest,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<ChatResponse> {
    if (request.answerProbabilities && request.format) {
      // The exact estimator reads the distribution; there is no answer to generate.
      const { prefix, candidates, promptTokens, latencyMs } = await this.answerDistribution(
        request,
        signal,
        timeoutMs,
      );
      return {
        content: prefix,
        thinking: null,
        doneReason: 'stop',
        promptTokens,
        completionTokens: 0,
        latencyMs,
        answerDistribution: { prefix, candidates },
      };
    }
    const started = performance.now();
    return this.guarded(signal, timeoutMs, async (deadline) => {
      const loaded = await this.load(request.model, request.options.numCtx);
      const answer = request.format ? this.answerGrammar(request.format) : null;
      const { tokens, prefixTokens } = await this.render(
        loaded,
        request.messages,
        answer?.prefix ?? '',
      );
      const sequence = await this.freshSequence(loaded, tokens.length);
      const grammar = answer?.grammar ? await this.grammar(loaded, answer.grammar) : null;
      const { lib } = await this.library0();
      const grammarEvaluationState = grammar
        ? new lib.LlamaGrammarEvaluationState({ model: loaded.model, grammar })
        : undefined;
      const budget = Math.max(1, request.options.numPredict - prefixTokens);
      const generated: Token[] = [];
      let doneReason = 'stop';
      if (!answer || answer.grammar !== null) {
        const stream = sequence.evaluate(tokens, {
          temperature: request.options.temperature,
          seed: request.options.seed,
          topK: 0,
          topP: 1,
          minP: 0,
          ...(grammarEvaluationState ? { grammarEvaluationState } : {}),
        });
        for await (const token of stream) {
          generated.push(token);
          if (deadline.signal.aborted) break;
          if (generated.length >= budget) {
            doneReason = 'length';
            break;
          }
        }
      }
      return {
        content: (answer?.prefix ?? '') + loaded.model.detokenize(generated),
        thinking: null,
        doneReason,
        promptTokens: tokens.length - prefixTokens,
        completionTokens: prefixTokens + generated.length,
        latencyMs: performance.now() - started,
      };
    });
  }

  /**
   * The probability of every token that may come first after the fixed prefix of the answer
   * (for a letter answer: right after `{"answer": "`), at temperature 1, from one evaluation
   * of the prompt. What the exact churn estimator reads instead of sampling K answers.
   */
  async answerDistribution(
    request: ChatRequest,
    signal?: AbortSignal,
    timeoutMs?: number,
  ): Promise<AnswerDistribution> {
    const started = performance.now();
    return this.guarded(signal, timeoutMs, async () => {
      if (!request.format) {
        throw new ProviderFailure('bad-request', 'an answer distribution needs an answer schema');
      }
      const loaded = await this.load(request.model, request.options.numCtx);
      const answer = this.answerGrammar(request.format);
      const { tokens, prefixTokens } = await this.render(loaded, request.messages, answer.prefix);
      const sequence = await this.freshSequence(loaded, tokens.length);
      const last = tokens[tokens.length - 1] as Token;
      const input: Parameters<LlamaContextSequence['controlledEvaluate']>[0] = tokens.slice(0, -1);
      input.push([
        last,
        {
          generateNext: {
            probabilities: true,
            options: { temperature: 1, topK: 0, topP: 1, minP: 0 },
          },
        },
      ]);
      const results = await sequence.controlledEvaluate(input);
      const probabilities = results[results.length - 1]?.next.probabilities;
      if (!probabilities) {
        throw new ProviderFailure('server-error', 'llama.cpp returned no probabilities');
      }
      const candidates: NextTokenCandidate[] = [];
      for (const [token, probability] of probabilities) {
        if (probability > 0) {
          candidates.push({
            text: this.tokenText(loaded, token),
            logprob: Math.log(probability),
          });
        }
      }
      return {
        prefix: answer.prefix,
        candidates,
        promptTokens: tokens.length - prefixTokens,
        latencyMs: performance.now() - started,
      };
    });
  }

  async describe(model: string): Promise<ModelMetadata> {
    try {
      return await describeModelFile(this.resolve(model));
    } catch (error) {
      throw classify(error, null);
    }
  }

  async version(): Promise<string | null> {
    try {
      const { lib, llama } = await this.library0();
      const release = llama.llamaCppRelease.release;
      const version = await lib.getModuleVersion();
      return `node-llama-cpp ${version}, llama.cpp ${release}`;
    } catch {
      return null;
    }
  }

  async loadedModels(): Promise<string[] | null> {
    return this.loaded ? [this.loaded.file.reference] : [];
  }

  async embed(model: string, texts: string[]): Promise<number[][]> {
    try {
      return await this.exclusive(async () => {
        const loaded = await this.load(model, null);
        loaded.embedding ??= await loaded.model.createEmbeddingContext({ threads: this.threads });
        const vectors: number[][] = [];
        for (const text of texts) {
          const embedding = await loaded.embedding.getEmbeddingFor(text);
          vectors.push([...embedding.vector]);
        }
        return vectors;
      });
    } catch (error) {
      throw classify(error, null);
    }
  }

  /** Frees the model and the native library (tests, end of a run). */
  async close(): Promise<void> {
    await this.exclusive(async () => {
      await this.unload();
      if (this.library) {
        const { llama } = await this.library;
        await llama.dispose();
        this.library = null;
      }
    });
  }

  private resolve(reference: string): ModelFile {
    return resolveModelFile(reference, this.options.ollamaStore, this.options.baseDir);
  }

  /**
   * Runs `work` after every earlier task of this provider (one context, one request at a
   * time), under the request's deadline: a request that ran out of time while it waited, or
   * while it ran, fails as such.
   */
  private guarded<T>(
    signal: AbortSignal | undefined,
    timeoutMs: number | undefined,
    work: (deadline: Deadline) => Promise<T>,
  ): Promise<T> {
    return underDeadline(timeoutMs ?? this.options.timeoutMs, signal, classify, (deadline) =>
      this.exclusive(async () => {
        // A stopped deadline's reason is classified below as a timeout or a cancellation.
        deadline.signal.throwIfAborted();
        const result = await work(deadline);
        deadline.signal.throwIfAborted();
        return result;
      }),
    );
  }

  /** Runs `task` after every earlier task of this provider (one context, one request at a time). */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.queue.then(task, task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private library0(): Promise<{ lib: NodeLlamaCpp; llama: Llama }> {
    this.library ??= (async () => {
      const lib = await loadEngine();
      const gpu = this.options.gpu ?? 'off';
      try {
        const llama = await lib.getLlama({
          gpu: gpu === 'off' ? false : gpu,
          build: 'never',
          skipDownload: true,
          progressLogs: false,
          maxThreads: this.threads,
          logLevel: lib.LlamaLogLevel.error,
          logger: () => undefined,
        });
        return { lib, llama };
      } catch (error) {
        throw new ProviderFailure(
          'server-error',
          `llama.cpp could not start (gpu: ${gpu}): ${errorMessage(error)}. ` +
            'The embedded provider uses the prebuilt binary of the installed @node-llama-cpp platform package and never downloads or builds one; see docs/embedded.md',
        );
      }
    })();
    this.library.catch(() => {
      this.library = null;
    });
    return this.library;
  }

  private async unload(): Promise<void> {
    const current = this.loaded;
    this.loaded = null;
    if (!current) return;
    await current.embedding?.dispose();
    await current.context?.dispose();
    await current.model.dispose();
  }

  /** The model, loaded once; loading another one frees the previous one (model-major runs). */
  private async load(reference: string, contextSize: number | null): Promise<LoadedModel> {
    if (this.loaded?.file.reference !== reference) {
      const file = this.resolve(reference);
      const { lib, llama } = await this.library0();
      await this.unload();
      const model = await llama.loadModel({ modelPath: file.path });
      const chatWrapper = lib.resolveChatWrapper(model);
      this.loaded = {
        file,
        model,
        chatWrapper,
        context: null,
        contextSize: 0,
        sequence: null,
        embedding: null,
        grammars: new Map(),
        tokenTexts: new Map(),
      };
    }
    const loaded = this.loaded as LoadedModel;
    // A different num_ctx means a different context; the runner pins it for a whole run.
    if (contextSize !== null && loaded.contextSize !== contextSize) {
      await loaded.context?.dispose();
      loaded.context = await loaded.model.createContext({
        contextSize,
        sequences: 1,
        threads: this.threads,
      });
      loaded.contextSize = contextSize;
      loaded.sequence = loaded.context.getSequence();
    }
    return loaded;
  }

  private async freshSequence(
    loaded: LoadedModel,
    promptLength: number,
  ): Promise<LlamaContextSequence> {
    const sequence = loaded.sequence;
    if (!sequence) throw new ProviderFailure('server-error', 'no context for this model');
    if (promptLength >= loaded.contextSize) {
      throw new ProviderFailure(
        'bad-request',
        `the prompt has ${promptLength} tokens, more than num_ctx ${loaded.contextSize} allows; raise runner.num-ctx`,
      );
    }
    await sequence.clearHistory();
    return sequence;
  }

  /** Messages through the model's chat template, then the fixed start of the answer. */
  private async render(
    loaded: LoadedModel,
    messages: readonly ChatMessage[],
    answerPrefix: string,
  ): Promise<{ tokens: Token[]; prefixTokens: number }> {
    const { lib } = await this.library0();
    const chatHistory: ChatHistoryItem[] = messages.map((message) =>
      message.role === 'system'
        ? { type: 'system', text: message.content }
        : message.role === 'user'
          ? { type: 'user', text: message.content }
          : { type: 'model', response: [message.content] },
    );
    chatHistory.push({ type: 'model', response: [] });
    const { contextText } = loaded.chatWrapper.generateContextState({ chatHistory });
    const promptOnly = contextText.tokenize(loaded.model.tokenizer);
    if (answerPrefix === '') return { tokens: promptOnly, prefixTokens: 0 };
    // Tokenised together with the prompt, as the model would see the text written out.
    const tokens = lib.LlamaText([contextText, answerPrefix]).tokenize(loaded.model.tokenizer);
    return { tokens, prefixTokens: Math.max(0, tokens.length - promptOnly.length) };
  }

  private answerGrammar(schema: JsonSchema): AnswerGrammar {
    const key = JSON.stringify(schema);
    const compiled = this.answerGrammars.get(key) ?? compileAnswerGrammar(schema);
    this.answerGrammars.set(key, compiled);
    return compiled;
  }

  private async grammar(loaded: LoadedModel, text: string): Promise<LlamaGrammar> {
    const grammar =
      loaded.grammars.get(text) ??
      (await (await this.library0()).llama.createGrammar({ grammar: text }));
    loaded.grammars.set(text, grammar);
    return grammar;
  }

  private tokenText(loaded: LoadedModel, token: Token): string {
    const text = loaded.tokenTexts.get(token) ?? loaded.model.detokenize([token], false);
    loaded.tokenTexts.set(token, text);
    return text;
  }
}

function classify(error: unknown, deadline: Deadline | null): ProviderFailure {
  if (deadline?.timedOut())
    return new ProviderFailure('timeout', 'no answer within the time limit');
  if (deadline?.cancelled()) return new ProviderFailure('cancelled', 'the run was cancelled');
  if (error instanceof ProviderFailure) return error;
  if (error instanceof UnsupportedSchemaError)
    return new ProviderFailure('bad-request', error.message);
  const message = errorMessage(error);
  return new ProviderFailure('server-error', `llama.cpp: ${message}`);
}

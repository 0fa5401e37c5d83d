import { z } from 'zod';
import { historySettingsSchema } from './history.js';
import { hasQuery, parseUrl } from './hostUrl.js';

/** A check's name: a built-in one, or one of a list a caller passes (a test's toy check). */
export type CheckName = string;

/**
 * What the config reads of a check: its name and its settings block. The config names no
 * check: the entry point passes its list of checks to `loadConfig`, and a check reads its own
 * block through its own type (`GateConfig & { churn: ChurnSettings }`).
 */
export interface ConfigCheck {
  name: CheckName;
  settingsSchema: z.ZodObject;
  /** Left out of the default `checks:` list: runs only when named. */
  optIn?: boolean;
}

export const FAIL_ON = ['regression', 'never', 'inconclusive'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * The server URL is printed in the terminal, the action log, the job summary and report.json:
 * a user name or password in it would be printed too. Refused, without echoing the value.
 */
export const CREDENTIALS_REFUSED =
  'a URL with a user name or password (http://user:secret@host) is refused, because the URL is shown in logs and reports; remove them and give an OpenAI-compatible server its key through provider.api-key-env';

export function hasCredentials(value: string): boolean {
  const url = parseUrl(value);
  return url !== null && (url.username !== '' || url.password !== '');
}

const httpUrl = z
  .string()
  .refine(
    (value) => ['http:', 'https:'].includes(parseUrl(value)?.protocol ?? ''),
    'expected an http:// or https:// URL such as http://127.0.0.1:11434',
  )
  .refine((value) => !hasCredentials(value), CREDENTIALS_REFUSED);

/** Where answers come from: a server speaking one of two APIs, or llama.cpp in-process. */
export const PROVIDER_KINDS = ['ollama', 'openai', 'embedded'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

/** GPU backends of the embedded provider. */
export const EMBEDDED_GPU_OPTIONS = ['off', 'auto', 'cuda', 'vulkan'] as const;
export type EmbeddedGpu = (typeof EMBEDDED_GPU_OPTIONS)[number];

/** A query string is refused unless `provider.allow-host-query`; its value is never echoed. */
export const QUERY_REFUSED =
  'a URL with a query string (http://host/?token=…) is refused, because the URL is shown in logs and reports and a query often carries a token; give an OpenAI-compatible server its key through provider.api-key-env, or set provider.allow-host-query: true if the server needs the query (values named like credentials or that look like tokens are then masked in everything written)';

/**
 * Which environment variables may hold a model server's key. The variable's value is sent as
 * a Bearer token to the host the config names, and the config is a file a pull request can
 * edit: any name would let it send the job's other secrets (the runner's ACTIONS_RUNTIME_TOKEN,
 * GITHUB_TOKEN, a cloud key) to a host of its choice. A name must say it holds such a key —
 * it ends in `_API_KEY` or starts with `MODEL_GATE_` — and must not be one of the runner's own
 * (`GITHUB_`, `ACTIONS_`, `RUNNER_`). Case is ignored: Windows reads names without it.
 */
export function isKeyVariable(name: string): boolean {
  const upper = name.toUpperCase();
  if (/^(GITHUB|ACTIONS|RUNNER)_/.test(upper)) return false;
  return /^MODEL_GATE_[A-Z0-9_]+$/.test(upper) || /^[A-Z0-9_]*[A-Z0-9]_API_KEY$/.test(upper);
}

export const keyVariableRefused = (name: string): string =>
  `${JSON.stringify(name)} is refused: the variable's value is sent as a Bearer token to provider.host, so only a variable named for a model server's key is read — one ending in _API_KEY (OPENAI_API_KEY, VLLM_API_KEY) or starting with MODEL_GATE_, never the runner's own (GITHUB_*, ACTIONS_*, RUNNER_*); put the key in such a variable (docs/security.md)`;

export const providerSchema = z
  .object({
    /** `embedded`: llama.cpp in-process on a .gguf file or an Ollama-store tag, no server. */
    kind: z
      .enum(PROVIDER_KINDS)
      .default('ollama')
      .describe(
        'where the answers come from: an Ollama server, any OpenAI-compatible /v1 server, or llama.cpp in this process (CLI only, docs/embedded.md)',
      ),
    /** Server URL; for Ollama, OLLAMA_HOST is used when this is absent. */
    host: httpUrl.optional().meta({
      description: 'server URL; default: OLLAMA_HOST, then http://127.0.0.1:11434',
      examples: ['http://127.0.0.1:11434'],
    }),
    /** Sends the host's query string with every request (refused by default: see QUERY_REFUSED). */
    allowHostQuery: z
      .boolean()
      .default(false)
      .describe(
        "send the host URL's query string with every request; refused by default because a token there would be written into the logs (docs/security.md)",
      ),
    /** Name of the environment variable that holds an API key (OpenAI-compatible servers). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional()
      .meta({
        description:
          'openai: name of the environment variable that holds the API key; it ends in _API_KEY or starts with MODEL_GATE_ (docs/security.md)',
        examples: ['OPENAI_API_KEY'],
      }),
    /** Embedded provider: CPU threads (default: physical cores). */
    threads: z
      .number()
      .int()
      .min(1)
      .max(1024)
      .optional()
      .meta({ description: 'embedded: CPU threads (default: the physical cores)', examples: [8] }),
    /** Embedded provider: GPU backend; needs its @node-llama-cpp build installed (docs/embedded.md). */
    gpu: z
      .enum(EMBEDDED_GPU_OPTIONS)
      .default('off')
      .describe('embedded: GPU backend; needs its node-llama-cpp build (docs/embedded.md)'),
  })
  .strict()
  .superRefine((provider, ctx) => {
    if (provider.host && hasQuery(provider.host) && !provider.allowHostQuery) {
      ctx.addIssue({ code: 'custom', path: ['host'], message: QUERY_REFUSED });
    }
    if (provider.apiKeyEnv !== undefined && !isKeyVariable(provider.apiKeyEnv)) {
      const message = keyVariableRefused(provider.apiKeyEnv);
      ctx.addIssue({ code: 'custom', path: ['apiKeyEnv'], message });
    }
  });

/** Longest model tag accepted: Ollama's longest names (host/namespace/model:tag) fit. */
export const MAX_MODEL_TAG = 300;

/** A tag is echoed in every output (shown neutralised): bounded so none is flooded. */
function modelTag(example: string) {
  return z.string().trim().min(1, `expected a model tag such as ${example}`).max(MAX_MODEL_TAG);
}

export const modelsSchema = z
  .object({
    baseline: modelTag('qwen2.5:7b').meta({
      description: "today's model: a tag (a .gguf path with provider.kind embedded)",
      examples: ['qwen2.5:7b'],
    }),
    /** Absent in nightly mode: one model measured against a stored report. */
    candidate: modelTag('qwen2.5:14b')
      .optional()
      .meta({
        description: 'the upgrade; omit it for a single-model (nightly) run',
        examples: ['qwen2.5:14b'],
      }),
  })
  .strict();

export const runnerSchema = z
  .object({
    concurrency: z
      .number()
      .int()
      .min(1)
      .max(256)
      .default(1)
      .describe("requests in flight: the server's parallel slots (OLLAMA_NUM_PARALLEL)"),
    timeoutS: z
      .number()
      .gt(0)
      .max(3600)
      .default(30)
      .describe('seconds per request; retried, then recorded as a timeout'),
    retries: z
      .number()
      .int()
      .min(0)
      .max(5)
      .default(1)
      .describe('retries of a request that failed or timed out'),
    numCtx: z
      .number()
      .int()
      .min(256)
      .default(4096)
      .describe('context length, the same for the whole run (changing it reloads the model)'),
    warmup: z.boolean().default(true).describe('one uncounted request per model before its series'),
    keepAlive: z
      .string()
      .default('10m')
      .describe('how long the server keeps a model loaded between requests'),
    /** Share of timed-out requests above which a series is marked perturbed. */
    perturbedTimeoutShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.05)
      .describe('above this share of timed-out requests a series is perturbed'),
    /**
     * Longest answer kept, in bytes (content and thinking): a longer one is recorded invalid
     * (too-long) and its connection dropped, so a runaway model cannot fill memory or the log.
     */
    maxReplyBytes: z
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(64 * 1024)
      .describe('a longer answer is recorded invalid (too-long) and its connection dropped'),
    /** Largest embedding reply per text embedded (personas `vectors: embed`), in bytes. */
    maxEmbeddingBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(1024 * 1024)
      .describe('largest embedding reply per text (personas vectors: embed)'),
    /** Unload other models from the server (keep_alive 0) before each model's series. */
    unloadOthers: z
      .boolean()
      .default(false)
      .describe(
        'unload the other models the server holds (keep_alive 0) before each series; either way they are reported',
      ),
    /** Seconds between nvidia-smi samples while the run measures; 0 turns them off. */
    gpuSampleS: z
      .number()
      .min(0)
      .max(3600)
      .default(5)
      .describe('seconds between nvidia-smi samples during the run (gpu.csv); 0: off'),
    /** Share of a series' GPU samples with another compute process above which it is perturbed. */
    gpuContentionShare: z
      .number()
      .min(0)
      .max(1)
      .default(0.2)
      .describe(
        "another compute process on the GPU in more than this share of a series' samples makes the series perturbed (inconclusive)",
      ),
  })
  .strict();

export const outputSchema = z
  .object({
    dir: z
      .string()
      .min(1)
      .default('model-gate-out')
      .describe('report.json, summary.md, the charts and samples.jsonl'),
    /** Sample log path; defaults to <dir>/samples.jsonl. */
    log: z
      .string()
      .min(1)
      .optional()
      .meta({
        description: 'the sample log (default: samples.jsonl in output.dir)',
        examples: ['model-gate-out/samples.jsonl'],
      }),
    /** Nightly history (JSON Lines): single-model runs append one line per night. */
    history: z
      .string()
      .min(1)
      .optional()
      .meta({
        description:
          'nightly history (JSON Lines): a single-model run writes one line per night (date, commit, model, digest, ECE, Brier, accuracies); a second run on one night replaces that line',
        examples: ['nightly/history.jsonl'],
      }),
  })
  .strict();

/** The `checks:` list: the names given, each once; every check not opt-in when absent. */
function checkList<Name extends string>(names: readonly [Name, ...Name[]], defaults: Name[]) {
  return z
    .array(z.enum(names))
    .min(1)
    .refine((list) => new Set(list).size === list.length, 'expected each check at most once')
    .default(defaults)
    .describe(`the checks to run, each at most once: ${names.join(', ')}`);
}

/** The config without the checks' settings blocks, which the registered checks add. */
const baseConfigSchema = z
  .object({
    provider: providerSchema.prefault({}).describe('where the models are reached'),
    models: modelsSchema.describe('the two models compared'),
    /** The registered checks' names; set when the checks' blocks are added (`activeConfigSchema`). */
    checks: z.array(z.string()),
    failOn: z
      .enum(FAIL_ON)
      .default('regression')
      .describe(
        'which verdicts fail the run: regression (fail), inconclusive (fail or inconclusive), never',
      ),
    /**
     * Largest share of runs in which two identical models may fail the whole gate. Split
     * equally between the selected checks; each check splits its share between its rules.
     */
    falseAlarmRate: z
      .number()
      .gt(0)
      .max(0.5)
      .default(0.05)
      .describe('two identical models fail the whole gate in at most this share of runs'),
    runner: runnerSchema.prefault({}).describe('how requests are sent'),
    output: outputSchema.prefault({}).describe('where the files go'),
    history: historySettingsSchema
      .prefault({})
      .describe('the drift rule on the nights of output.history (single-model runs)'),
  })
  .strict();

/** The validated config, every default filled in; each check reads its block by its own type. */
export type GateConfig = Omit<z.infer<typeof baseConfigSchema>, 'checks'> & {
  checks: CheckName[];
};

type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/**
 * The config as the checks of a list read it: each check's own block typed (a check types
 * the config it reads through its methods, e.g. `maxTimeoutShare(config: ChurnConfig)`).
 */
export type ConfigOf<Check> = GateConfig &
  Intersection<Check extends { maxTimeoutShare(config: infer C): number } ? C : GateConfig>;

/** The schema a config is read with (its output: a `GateConfig`, each check's block typed). */
export type ConfigSchema<Config extends GateConfig = GateConfig> = z.ZodType<Config> & {
  shape: Record<string, z.ZodType>;
};

/** Schemas already composed, by list of checks (an entry point passes one list for the run). */
const composed = new WeakMap<readonly ConfigCheck[], ConfigSchema>();

/**
 * The schema a config is read with: the config's own blocks and each check's settings block,
 * read under its name; every check of the list joins the `checks:` list and its default.
 */
export function configSchema<Check extends ConfigCheck>(
  checks: readonly Check[],
): ConfigSchema<ConfigOf<Check>> {
  const known = composed.get(checks);
  if (known) return known as ConfigSchema<ConfigOf<Check>>;
  const names = checks.map((c) => c.name);
  const [first, ...rest] = names;
  if (first === undefined) throw new Error('a config is read for at least one check');
  for (const [i, name] of names.entries()) {
    if (names.indexOf(name) !== i || name in baseConfigSchema.shape) {
      throw new Error(`the config already has a block named ${name}`);
    }
  }
  const { history, ...base } = baseConfigSchema.shape;
  const defaults = checks.filter((c) => !c.optIn).map((c) => c.name);
  const blocks = Object.fromEntries(checks.map((c) => [c.name, c.settingsSchema.prefault({})]));
  // The checks' blocks before `history`: the order the blocks are documented in.
  const schema = z
    .object({ ...base, checks: checkList([first, ...rest], defaults), ...blocks, history })
    .strict() as unknown as ConfigSchema;
  composed.set(checks, schema);
  return schema as ConfigSchema<ConfigOf<Check>>;
}

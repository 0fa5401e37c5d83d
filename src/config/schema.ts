import { z } from 'zod';
import { churnSettingsSchema } from '../checks/churn/settings.js';
import { dragonSettingsSchema } from '../checks/dragon/settings.js';
import { personasSettingsSchema } from '../checks/personas/settings.js';
import { historySettingsSchema } from '../history/settings.js';

export const CHECK_NAMES = ['churn', 'dragon', 'personas'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

export const FAIL_ON = ['regression', 'never', 'inconclusive'] as const;
export type FailOn = (typeof FAIL_ON)[number];

/**
 * The server URL is printed in the terminal, the action log, the job summary and report.json:
 * a user name or password in it would be printed too. Refused, without echoing the value.
 */
export const CREDENTIALS_REFUSED =
  'a URL with a user name or password (http://user:secret@host) is refused, because the URL is shown in logs and reports; remove them and give an OpenAI-compatible server its key through provider.api-key-env';

export function hasCredentials(value: string): boolean {
  try {
    const url = new URL(value);
    return url.username !== '' || url.password !== '';
  } catch {
    return false;
  }
}

const httpUrl = z
  .string()
  .refine((value) => {
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:';
    } catch {
      return false;
    }
  }, 'expected an http:// or https:// URL such as http://127.0.0.1:11434')
  .refine((value) => !hasCredentials(value), CREDENTIALS_REFUSED);

export const providerSchema = z
  .object({
    /** `embedded`: llama.cpp in-process on a .gguf file or an Ollama-store tag, no server. */
    kind: z.enum(['ollama', 'openai', 'embedded']).default('ollama'),
    /** Server URL; for Ollama, OLLAMA_HOST is used when this is absent. */
    host: httpUrl.optional(),
    /** Name of the environment variable that holds an API key (OpenAI-compatible servers). */
    apiKeyEnv: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]*$/)
      .optional(),
    /** Embedded provider: CPU threads (default: physical cores). */
    threads: z.number().int().min(1).max(1024).optional(),
    /** Embedded provider: GPU backend; needs its @node-llama-cpp build installed (docs/embedded.md). */
    gpu: z.enum(['off', 'auto', 'cuda', 'vulkan']).default('off'),
  })
  .strict();

export const modelsSchema = z
  .object({
    baseline: z.string().trim().min(1, 'expected a model tag such as qwen2.5:7b'),
    /** Absent in nightly mode: one model measured against a stored report. */
    candidate: z.string().trim().min(1, 'expected a model tag such as qwen2.5:14b').optional(),
  })
  .strict();

export const runnerSchema = z
  .object({
    concurrency: z.number().int().min(1).max(256).default(1),
    timeoutS: z.number().gt(0).max(3600).default(30),
    retries: z.number().int().min(0).max(5).default(1),
    numCtx: z.number().int().min(256).default(4096),
    warmup: z.boolean().default(true),
    keepAlive: z.string().default('10m'),
    /** Share of timed-out requests above which a series is marked perturbed. */
    perturbedTimeoutShare: z.number().min(0).max(1).default(0.05),
    /**
     * Longest answer kept, in bytes (content and thinking): a longer one is recorded invalid
     * (too-long) and its connection dropped, so a runaway model cannot fill memory or the log.
     */
    maxReplyBytes: z
      .number()
      .int()
      .min(1024)
      .max(256 * 1024 * 1024)
      .default(64 * 1024),
    /** Largest embedding reply per text embedded (personas `vectors: embed`), in bytes. */
    maxEmbeddingBytes: z
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(1024 * 1024),
    /** Unload other models from the server (keep_alive 0) before each model's series. */
    unloadOthers: z.boolean().default(false),
    /** Seconds between nvidia-smi samples while the run measures; 0 turns them off. */
    gpuSampleS: z.number().min(0).max(3600).default(5),
    /** Share of a series' GPU samples with another compute process above which it is perturbed. */
    gpuContentionShare: z.number().min(0).max(1).default(0.2),
  })
  .strict();

export const outputSchema = z
  .object({
    dir: z.string().min(1).default('model-gate-out'),
    /** Sample log path; defaults to <dir>/samples.jsonl. */
    log: z.string().min(1).optional(),
    /** Nightly history (JSON Lines): single-model runs append one line per night. */
    history: z.string().min(1).optional(),
  })
  .strict();

export const configSchema = z
  .object({
    provider: providerSchema.prefault({}),
    models: modelsSchema,
    checks: z
      .array(z.enum(CHECK_NAMES))
      .min(1)
      .refine((list) => new Set(list).size === list.length, 'expected each check at most once')
      .default([...CHECK_NAMES]),
    failOn: z.enum(FAIL_ON).default('regression'),
    /**
     * Largest share of runs in which two identical models may fail the whole gate. Split
     * equally between the selected checks; each check splits its share between its rules.
     */
    falseAlarmRate: z.number().gt(0).max(0.5).default(0.05),
    runner: runnerSchema.prefault({}),
    output: outputSchema.prefault({}),
    churn: churnSettingsSchema.prefault({}),
    dragon: dragonSettingsSchema.prefault({}),
    personas: personasSettingsSchema.prefault({}),
    history: historySettingsSchema.prefault({}),
  })
  .strict();

/** The validated config, every default filled in. */
export type GateConfig = z.infer<typeof configSchema>;

import { z } from 'zod';
import type { GateConfig } from '../../config/schema.js';
import { maxTimeoutShare } from '../../config/shareLimit.js';
import { checkSettings } from '../settings.js';

/** Limits written as shares: 0.25 lets the candidate be up to 25% slower. */
function riseLimit(fallback: number, description: string) {
  return z.number().min(0).max(100).default(fallback).describe(description);
}

/** `speed:` section of model-gate.yml. */
export const speedSettingsSchema = checkSettings(
  {
    /**
     * Answers per prompt of the check's own short prompts, sent only when no other check runs
     * (otherwise the other checks' requests are timed and nothing is added). Six prompts × 15:
     * 90 paired answers, enough to fail a 1.5× slower decode at the default limit in most runs
     * even with a request-to-request spread of 25% (docs/gate-validity-speed.md).
     */
    samples: z
      .number()
      .int()
      .min(1)
      .max(50)
      .default(15)
      .describe("answers per prompt of the check's own prompts (only when it runs alone)"),
    maxTokens: z
      .number()
      .int()
      .min(16)
      .default(128)
      .describe("most tokens an answer to the check's own prompts may take"),
  },
  {
    maxSlowdown: riseLimit(
      0.25,
      'decode time per token: fails when the candidate is surely slower by more than this share',
    ),
    maxPromptSlowdown: riseLimit(
      0.5,
      'prompt processing time per token: fails when surely slower by more than this share',
    ),
    maxVerbosityRise: riseLimit(
      0.5,
      'output tokens per answer: fails when the candidate surely writes more by more than this share',
    ),
    offload: z
      .enum(['fail', 'warn', 'off'])
      .default('fail')
      .describe(
        'the candidate partly in system memory while the baseline was wholly in GPU memory: fail | warn | off',
      ),
    maxVramMib: z
      .number()
      .int()
      .min(1)
      .optional()
      .meta({
        description:
          "fails when the candidate's GPU memory (/api/ps size_vram) exceeds this many MiB",
        examples: [20480],
      }),
    maxDecodeDrop: z
      .number()
      .gt(0)
      .lt(1)
      .default(0.25)
      .describe(
        "nightly runs with a history: fails when tonight's median decode tokens/s is more than this share below the median of the previous nights (the last history.drift-nights with a rate)",
      ),
    maxTimeoutShare: maxTimeoutShare(),
  },
  {
    gate: 'what fails',
    block:
      "whether the candidate decodes, reads prompts and answers as fast and as briefly as the baseline, from the server's own timings",
  },
);

export type SpeedSettings = z.infer<typeof speedSettingsSchema>;

/** The config as the speed check reads it: its `speed:` block typed. */
export type SpeedConfig = GateConfig & { speed: SpeedSettings };

/**
 * The speed check's own work, only when it runs alone: a few short prompts asked a few times
 * each, enough for a paired comparison of decode and prompt rates. With any other check it
 * plans nothing: their requests are timed already, and extra requests would cost GPU time.
 */
import { createHash } from 'node:crypto';
import type { ChatMessage, ChatOptions } from '../../providers/types.js';
import {
  recordedOptions,
  replyFields,
  SAMPLE_LOG_VERSION,
  type SampleRecord,
  sameRecordedOptions,
} from '../../sampleLog/index.js';
import { isCall } from '../../sampleLog/schema.js';
import type { CheckContext } from '../types.js';
import type { WorkUnit } from '../workUnit.js';
import type { SpeedCallRecord } from './records.js';
import type { SpeedConfig } from './settings.js';

/** Short prompts of different shapes: a list, an explanation, a rewrite, arithmetic, code. */
export const SPEED_PROMPTS: readonly { id: string; text: string }[] = [
  { id: 'list', text: 'List five fruits that are yellow, one per line.' },
  { id: 'explain', text: 'Explain in three sentences why the sky looks blue.' },
  { id: 'rewrite', text: 'Rewrite this sentence in a formal tone: "we gotta fix this bug asap".' },
  {
    id: 'sum',
    text: 'What is 17 multiplied by 23? Answer with the number and one line of working.',
  },
  { id: 'code', text: 'Write a short Python function that reverses a string.' },
  { id: 'story', text: 'Tell a four-sentence story about a lighthouse keeper.' },
];

export function speedRuns(config: SpeedConfig): boolean {
  return config.checks.length === 1 && config.checks[0] === 'speed';
}

export function planSpeed(
  prompts: readonly { id: string; text: string }[],
  ctx: CheckContext<SpeedConfig>,
  model: string,
): WorkUnit[] {
  if (!speedRuns(ctx.config)) return [];
  const { samples, maxTokens } = ctx.config.speed;
  return prompts.flatMap((prompt) =>
    Array.from({ length: samples }, (_, sample): WorkUnit => {
      const messages: ChatMessage[] = [{ role: 'user', content: prompt.text }];
      const hash = createHash('sha256').update(JSON.stringify(messages)).digest('hex');
      // Sample s with seed s: answers of varied lengths, the same seeds for both models.
      const options: ChatOptions = {
        temperature: 0.7,
        seed: sample,
        numCtx: ctx.config.runner.numCtx,
        numPredict: maxTokens,
        think: false,
      };
      const recorded = recordedOptions(options);
      const key = `${prompt.id}#${sample}`;
      const sameCall = (r: SampleRecord): boolean =>
        isCall(r) &&
        r.check === 'speed' &&
        r.model === model &&
        r.key === key &&
        r.prompt_sha256 === hash &&
        sameRecordedOptions(r.options, recorded);
      return {
        check: 'speed',
        model,
        key,
        expectedCalls: 1,
        expected: { promptSha256: hash, options: recorded },
        isComplete: (prior) => prior.some((r) => sameCall(r) && isCall(r) && r.status !== 'error'),
        current: (records) => records.filter(sameCall),
        async execute(unit) {
          const outcome = await unit.call({
            request: { model, messages, options },
            promptSha256: hash,
          });
          const record: SpeedCallRecord = {
            v: SAMPLE_LOG_VERSION,
            kind: 'call',
            check: 'speed',
            model,
            digest: unit.digest,
            key,
            sample,
            options: recorded,
            prompt_sha256: hash,
            status: outcome.status,
            latency_ms: outcome.latencyMs,
            attempts: outcome.attempts,
            prompt: prompt.id,
            ...replyFields(outcome.response),
          };
          if (outcome.reason !== undefined) record.reason = outcome.reason;
          await unit.emit(record);
        },
      };
    }),
  );
}

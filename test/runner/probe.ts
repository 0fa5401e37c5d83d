/**
 * Test-local work: "probe" units that make one call each and log a churn-shaped record, and
 * the scripted simulator behaviour that answers them. The answer is a seeded letter, so a
 * test knows in advance what every probe must record.
 */
import { createHash } from 'node:crypto';
import type { ChatOptions } from '../../src/providers/types.js';
import type { SampleRecord } from '../../src/sampleLog/index.js';
import { SAMPLE_LOG_VERSION } from '../../src/sampleLog/index.js';
import type { WorkUnit } from '../../src/checks/workUnit.js';
import type { Behaviour, SimulatedChat } from '../../src/simulator/behaviour.js';
import { seedFromText } from '../../src/stats/prng.js';
import type { ChurnCallRecord } from '../../src/checks/churn/records.js';

export const PROBE_OPTIONS: ChatOptions = {
  temperature: 0.7,
  seed: 11,
  numCtx: 4096,
  numPredict: 32,
  think: false,
};

/** The letter the probe behaviour answers for this model and probe. */
export function expectedLetter(model: string, index: number): string {
  return 'ABCD'[seedFromText(`${model}|probe ${index}|${PROBE_OPTIONS.seed}`) % 4] ?? 'A';
}

export const probeBehaviour: Behaviour = {
  name: 'probe',
  answer(chat: SimulatedChat): string | null {
    const match = /^probe (\d+)$/.exec(chat.user);
    if (!match) return null;
    return JSON.stringify({ answer: expectedLetter(chat.model, Number(match[1])) });
  },
};

export function probeKey(index: number): string {
  return `probe-${index}`;
}

export function probeUnits(model: string, count: number, from = 0): WorkUnit[] {
  return Array.from({ length: count }, (_, i) => probeUnit(model, from + i));
}

export function probeUnit(model: string, index: number): WorkUnit {
  const key = probeKey(index);
  const content = `probe ${index}`;
  const spec = {
    request: {
      model,
      messages: [{ role: 'user' as const, content }],
      format: { type: 'object', properties: { answer: { type: 'string' } } },
      options: PROBE_OPTIONS,
    },
    promptSha256: createHash('sha256').update(content).digest('hex'),
  };
  return {
    check: 'churn',
    model,
    key,
    expectedCalls: 1,
    isComplete: (prior: readonly SampleRecord[]) => prior.some((r) => r.kind === 'call'),
    async execute(ctx) {
      const outcome = await ctx.call(spec);
      let answer: string | null = null;
      if (outcome.response) {
        try {
          const parsed: unknown = JSON.parse(outcome.response.content);
          if (parsed && typeof parsed === 'object' && 'answer' in parsed) {
            answer = String(parsed.answer);
          }
        } catch {
          answer = null;
        }
      }
      const status =
        outcome.status === 'ok' && answer === null ? ('invalid' as const) : outcome.status;
      const record: ChurnCallRecord = {
        v: SAMPLE_LOG_VERSION,
        kind: 'call',
        check: 'churn',
        model,
        digest: ctx.digest,
        key,
        sample: 0,
        options: {
          temperature: PROBE_OPTIONS.temperature,
          seed: PROBE_OPTIONS.seed,
          num_ctx: PROBE_OPTIONS.numCtx,
          num_predict: PROBE_OPTIONS.numPredict,
          think: PROBE_OPTIONS.think,
        },
        prompt_sha256: spec.promptSha256,
        status,
        ...(outcome.reason ? { reason: outcome.reason } : {}),
        latency_ms: Math.round(outcome.latencyMs),
        attempts: outcome.attempts,
        item: `probe${index}`,
        domain: 'probe',
        mode: 'stochastic',
        answer,
        correct: answer === null ? null : answer === expectedLetter(model, index),
      };
      await ctx.emit(record);
    },
  };
}

/**
 * The plan: for one model, K stochastic samples of every item (seed = base seed + k, so the
 * samples differ — one shared seed would make them identical on Ollama) and, unless turned
 * off, one greedy sample (temperature 0). One call per work unit.
 */
import type { GateConfig } from '../../config/schema.js';
import type { ChatOptions } from '../../providers/types.js';
import type { SampleRecord } from '../../runner/records.js';
import type { WorkUnit } from '../../runner/types.js';
import type { ChurnItem } from './items.js';
import { answerSchema, churnMessages, churnPromptHash } from './prompt.js';
import { type ChurnSampleSlot, recordedOptions, scoreChurnSample } from './score.js';

/** Unit key of one sample: stable across runs, shards and machines. */
export function churnUnitKey(
  itemId: string,
  mode: 'stochastic' | 'greedy',
  sample: number,
): string {
  return mode === 'greedy' ? `${itemId}#greedy` : `${itemId}#${sample}`;
}

export function churnSlots(
  items: readonly ChurnItem[],
  config: GateConfig,
  model: string,
): ChurnSampleSlot[] {
  const settings = config.churn;
  const slots: ChurnSampleSlot[] = [];
  const slot = (
    item: ChurnItem,
    mode: 'stochastic' | 'greedy',
    sample: number,
    options: ChatOptions,
  ) => {
    slots.push({
      item,
      model,
      key: churnUnitKey(item.id, mode, sample),
      mode,
      sample,
      spec: {
        request: { model, messages: churnMessages(item), format: answerSchema(item), options },
        promptSha256: churnPromptHash(item),
      },
    });
  };
  const common = {
    numCtx: config.runner.numCtx,
    numPredict: settings.numPredict,
    think: settings.think,
  };
  for (const item of items) {
    for (let k = 0; k < settings.samples; k++) {
      slot(item, 'stochastic', k, {
        ...common,
        temperature: settings.temperature,
        seed: settings.baseSeed + k,
      });
    }
    if (settings.greedy)
      slot(item, 'greedy', 0, { ...common, temperature: 0, seed: settings.greedySeed });
  }
  return slots;
}

function sameOptions(a: SampleRecord, slot: ChurnSampleSlot): boolean {
  if (a.kind !== 'call') return false;
  const want = recordedOptions(slot.spec);
  const got = a.options;
  return (
    got.temperature === want.temperature &&
    got.seed === want.seed &&
    got.num_ctx === want.num_ctx &&
    got.num_predict === want.num_predict &&
    got.think === want.think
  );
}

export function churnWorkUnits(
  items: readonly ChurnItem[],
  config: GateConfig,
  model: string,
): WorkUnit[] {
  const keepText = config.churn.keepText;
  return churnSlots(items, config, model).map((slot) => {
    const isComplete = (prior: readonly SampleRecord[]): boolean =>
      prior.some(
        (record) =>
          record.kind === 'call' &&
          record.status !== 'error' &&
          record.prompt_sha256 === slot.spec.promptSha256 &&
          sameOptions(record, slot),
      );
    return {
      check: 'churn',
      model,
      key: slot.key,
      expectedCalls: 1,
      isComplete,
      async execute(ctx) {
        if (isComplete(ctx.prior)) return;
        const outcome = await ctx.call(slot.spec);
        await ctx.emit(scoreChurnSample(slot, outcome, ctx.digest, keepText));
      },
    };
  });
}

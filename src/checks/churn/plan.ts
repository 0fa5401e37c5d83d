/**
 * The plan. Sampled estimator: for one model, K stochastic samples of every item (seed = base
 * seed + k, so the samples differ — one shared seed would make them identical on Ollama) and,
 * unless turned off, one greedy sample (temperature 0). Exact estimator: one evaluation per
 * item that asks for the answer probabilities. One call per work unit.
 */
import type { GateConfig } from '../../config/schema.js';
import { InputError } from '../../errors.js';
import { ANSWER_PROBABILITY_SOURCES, type ChatOptions } from '../../providers/types.js';
import { recordedOptions, type SampleRecord, sameRecordedOptions } from '../../sampleLog/index.js';
import type { WorkUnit } from '../../runner/types.js';
import type { ChurnItem } from './items.js';
import { answerSchema, churnMessages, churnPromptHash } from './prompt.js';
import { type ChurnSampleSlot, scoreChurnExact, scoreChurnSample } from './score.js';

/** Unit key of one sample: stable across runs, shards and machines. */
export function churnUnitKey(
  itemId: string,
  mode: ChurnSampleSlot['mode'],
  sample: number,
): string {
  return mode === 'stochastic' ? `${itemId}#${sample}` : `${itemId}#${mode}`;
}

/**
 * The logprobs estimator needs a provider that can return answer probabilities, and over Ollama
 * enough alternatives per token to hold every letter; said before any request, with what to
 * change.
 */
export function checkExactEstimator(config: GateConfig, items: readonly ChurnItem[] = []): void {
  if (config.churn.estimator !== 'logprobs') return;
  const kind = config.provider.kind;
  if (ANSWER_PROBABILITY_SOURCES[kind] === 'ollama-logprobs') checkTopLogprobs(config, items);
  if (ANSWER_PROBABILITY_SOURCES[kind] === null) {
    throw new InputError(
      `churn.estimator: logprobs needs the probability of each answer letter, which provider.kind ${kind} cannot return`,
      [
        'use provider.kind: embedded (llama.cpp in process) or provider.kind: ollama (server 0.12.11 or later, token logprobs)',
        'or set churn.estimator: sampled (K sampled answers per item)',
      ],
    );
  }
}

/** The slot of one call: item, mode and sample index (seed = base seed + sample). */
export function churnSlot(
  item: ChurnItem,
  config: GateConfig,
  model: string,
  mode: ChurnSampleSlot['mode'],
  sample: number,
): ChurnSampleSlot {
  const settings = config.churn;
  const common = {
    numCtx: config.runner.numCtx,
    numPredict: settings.numPredict,
    think: settings.think,
  };
  // Temperature 0 for the logprobs estimator: Ollama's log-probabilities are then those of the
  // raw logits in every server version (later ones scale them by a temperature above 0); the
  // estimator applies churn.temperature itself.
  const options: ChatOptions =
    mode === 'stochastic'
      ? { ...common, temperature: settings.temperature, seed: settings.baseSeed + sample }
      : { ...common, temperature: 0, seed: settings.greedySeed };
  return {
    item,
    model,
    key: churnUnitKey(item.id, mode, sample),
    mode,
    sample,
    spec: {
      request: {
        model,
        messages: churnMessages(item),
        format: answerSchema(item),
        options,
        ...(mode === 'exact' ? { answerProbabilities: { top: settings.topLogprobs } } : {}),
      },
      promptSha256: churnPromptHash(item),
    },
  };
}

/** Stochastic samples planned before any answer: K, or adaptive sampling's first stage. */
export function firstSamples(settings: GateConfig['churn']): number {
  return settings.sampling === 'adaptive' ? settings.samplesFirst : settings.samples;
}

export function churnSlots(
  items: readonly ChurnItem[],
  config: GateConfig,
  model: string,
): ChurnSampleSlot[] {
  const settings = config.churn;
  if (settings.estimator === 'logprobs') {
    return items.map((item) => churnSlot(item, config, model, 'exact', 0));
  }
  const slots: ChurnSampleSlot[] = [];
  const samples = firstSamples(settings);
  for (const item of items) {
    for (let k = 0; k < samples; k++) slots.push(churnSlot(item, config, model, 'stochastic', k));
    if (settings.greedy) slots.push(churnSlot(item, config, model, 'greedy', 0));
  }
  return slots;
}

/**
 * Ollama returns the top N alternatives of each token: a letter outside them would count as
 * probability 0, silently lowering p(correct). Fewer alternatives than an item's choices
 * always leaves some letter out, so it is refused.
 */
function checkTopLogprobs(config: GateConfig, items: readonly ChurnItem[]): void {
  const top = config.churn.topLogprobs;
  let widest: ChurnItem | null = null;
  for (const item of items) {
    if (item.choices.length > (widest?.choices.length ?? top)) widest = item;
  }
  if (!widest) return;
  const short = items.filter((item) => item.choices.length > top).length;
  throw new InputError(
    `churn.top-logprobs: ${top} is below the ${widest.choices.length} answer choices of item ${widest.id} (${config.churn.items}, line ${widest.line}); ${short} item(s) have more choices than that, and letters outside the returned alternatives would count as probability 0`,
    [`set churn.top-logprobs to at least ${widest.choices.length} (Ollama returns up to 20)`],
  );
}

export function churnWorkUnits(
  items: readonly ChurnItem[],
  config: GateConfig,
  model: string,
): WorkUnit[] {
  checkExactEstimator(config, items);
  return churnSlots(items, config, model).map((slot) => churnUnit(slot, config));
}

/** One call as a work unit: complete once the log holds its answer under today's settings. */
export function churnUnit(slot: ChurnSampleSlot, config: GateConfig): WorkUnit {
  const { keepText, temperature } = config.churn;
  const matches = (record: SampleRecord): boolean =>
    record.kind === 'call' &&
    record.prompt_sha256 === slot.spec.promptSha256 &&
    sameRecordedOptions(record.options, recordedOptions(slot.spec.request.options)) &&
    // Exact probabilities hold for one temperature; another one is asked again.
    (slot.mode !== 'exact' ||
      (record.check === 'churn' && record.estimate_temperature === temperature));
  const isComplete = (prior: readonly SampleRecord[]): boolean =>
    prior.some((record) => matches(record) && record.kind === 'call' && record.status !== 'error');
  return {
    check: 'churn',
    model: slot.model,
    key: slot.key,
    expectedCalls: 1,
    expected: {
      promptSha256: slot.spec.promptSha256,
      options: recordedOptions(slot.spec.request.options),
    },
    isComplete,
    current: (records) => records.filter(matches),
    async execute(ctx) {
      if (isComplete(ctx.prior)) return;
      const outcome = await ctx.call(slot.spec);
      await ctx.emit(
        slot.mode === 'exact'
          ? scoreChurnExact(slot, outcome, ctx.digest, keepText, temperature)
          : scoreChurnSample(slot, outcome, ctx.digest, keepText),
      );
    },
  };
}

/**
 * The plan. Sampled estimator: for one model, K stochastic samples of every item (seed = base
 * seed + k, so the samples differ — one shared seed would make them identical on Ollama) and,
 * unless turned off, one greedy sample (temperature 0). Logprobs estimator: one evaluation per
 * item that asks for the answer probabilities. One call per work unit.
 */
import { InputError } from '../../errors.js';
import { ANSWER_PROBABILITY_SOURCES, type ChatOptions } from '../../providers/types.js';
import {
  type RecordedOptions,
  recordedOptions,
  type SampleRecord,
  sameRecordedOptions,
} from '../../sampleLog/index.js';
import { isCall } from '../../sampleLog/schema.js';
import type { UnitContext, WorkUnit } from '../workUnit.js';
import type { ChoiceItem, ChurnItem } from './items.js';
import { itemFormat, itemMessages, itemPromptHash } from './prompt.js';
import { type ChurnSampleSlot, scoreChurnLogprobs, scoreChurnSample } from './score.js';
import { type ChurnConfig, type ChurnSettings, fixedSamples, samplingOf } from './settings.js';

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
export function checkLogprobsEstimator(
  config: ChurnConfig,
  items: readonly ChurnItem[] = [],
): void {
  if (config.churn.estimator !== 'logprobs') return;
  checkNoOpenItems(config, items);
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

/** Open items have no answer letters to read probabilities of: said before any request. */
function checkNoOpenItems(config: ChurnConfig, items: readonly ChurnItem[]): void {
  const open = items.filter((item) => item.kind === 'open');
  const first = open[0];
  if (!first) return;
  throw new InputError(
    `churn.estimator: logprobs reads the probability of each answer letter, and ${open.length} item(s) of ${config.churn.items} are open items with free-form answers (first: ${first.id}, line ${first.line})`,
    [
      "set churn.estimator: sampled (K sampled answers per item, graded by each item's grader)",
      'or keep only multiple-choice items in churn.items',
    ],
  );
}

/** num_predict of an item: churn.num-predict for a letter, the item's max-tokens for free text. */
function tokensOf(item: ChurnItem, config: ChurnConfig): number {
  return item.kind === 'open' ? item.maxTokens : config.churn.numPredict;
}

function slotOptions(
  config: ChurnConfig,
  mode: ChurnSampleSlot['mode'],
  sample: number,
  numPredict: number,
): ChatOptions {
  const settings = config.churn;
  const common = {
    numCtx: config.runner.numCtx,
    numPredict,
    think: settings.think,
  };
  // Temperature 0 for the logprobs estimator: Ollama's log-probabilities are then those of the
  // raw logits in every server version (later ones scale them by a temperature above 0); the
  // estimator applies churn.temperature itself.
  return mode === 'stochastic'
    ? { ...common, temperature: settings.temperature, seed: settings.baseSeed + sample }
    : { ...common, temperature: 0, seed: settings.greedySeed };
}

/** Stochastic samples planned before any answer: K, or adaptive sampling's first stage. */
export function firstSamples(settings: ChurnSettings): number {
  return samplingOf(settings) === 'adaptive' ? settings.samplesFirst : fixedSamples(settings);
}

/**
 * One item's prompt, shared by all its samples and both models. Its messages and answer schema
 * are made when a request is sent (a resumed plan of 150,000 samples sends none), its hash
 * once.
 */
interface ItemPrompt {
  item: ChurnItem;
  promptSha256: string;
}

const promptOf = new WeakMap<ChurnItem, ItemPrompt>();

function itemPrompt(item: ChurnItem): ItemPrompt {
  let prompt = promptOf.get(item);
  if (!prompt) {
    prompt = { item, promptSha256: itemPromptHash(item) };
    promptOf.set(item, prompt);
  }
  return prompt;
}

/** One sample of an item, without its model: what a slot is made from when it is needed. */
interface ChurnSample {
  prompt: ItemPrompt;
  mode: ChurnSampleSlot['mode'];
  sample: number;
  options: ChatOptions;
}

/**
 * The samples planned before any answer, told to `visit` one by one. One options object per
 * sample index and one prompt per item, shared by the samples that use them: a plan of
 * 150,000 samples would otherwise hold 150,000 copies of each prompt.
 */
function eachSample(
  items: readonly ChurnItem[],
  config: ChurnConfig,
  visit: (
    prompt: ItemPrompt,
    mode: ChurnSampleSlot['mode'],
    sample: number,
    options: ChatOptions,
  ) => void,
): void {
  const settings = config.churn;
  const optionsOf = new Map<string, ChatOptions>();
  // Open items bring their own max-tokens: one options object per sample index and budget.
  const shared = (mode: ChurnSampleSlot['mode'], sample: number, tokens: number): ChatOptions => {
    const id = `${mode === 'stochastic' ? `s${sample}` : 'greedy'}/${tokens}`;
    const found = optionsOf.get(id) ?? slotOptions(config, mode, sample, tokens);
    optionsOf.set(id, found);
    return found;
  };
  const first = firstSamples(settings);
  for (const item of items) {
    const prompt = itemPrompt(item);
    const tokens = tokensOf(item, config);
    if (settings.estimator === 'logprobs') {
      visit(prompt, 'exact', 0, shared('exact', 0, tokens));
      continue;
    }
    for (let k = 0; k < first; k++) {
      visit(prompt, 'stochastic', k, shared('stochastic', k, tokens));
    }
    if (settings.greedy) visit(prompt, 'greedy', 0, shared('greedy', 0, tokens));
  }
}

function slotOf(s: ChurnSample, model: string, top: number): ChurnSampleSlot {
  const { item, promptSha256 } = s.prompt;
  const probabilities = s.mode === 'exact' ? { answerProbabilities: { top } } : {};
  const format = itemFormat(item);
  const request = {
    model,
    messages: itemMessages(item),
    ...(format ? { format } : {}),
    options: s.options,
    ...probabilities,
  };
  const key = churnUnitKey(item.id, s.mode, s.sample);
  return { item, model, key, mode: s.mode, sample: s.sample, spec: { request, promptSha256 } };
}

export function churnSlots(
  items: readonly ChurnItem[],
  config: ChurnConfig,
  model: string,
): ChurnSampleSlot[] {
  const slots: ChurnSampleSlot[] = [];
  eachSample(items, config, (prompt, mode, sample, options) => {
    slots.push(slotOf({ prompt, mode, sample, options }, model, config.churn.topLogprobs));
  });
  return slots;
}

/**
 * Ollama returns the top N alternatives of each token: a letter outside them would count as
 * probability 0, silently lowering p(correct). Fewer alternatives than an item's choices
 * always leaves some letter out, so it is refused.
 */
function checkTopLogprobs(config: ChurnConfig, all: readonly ChurnItem[]): void {
  const top = config.churn.topLogprobs;
  const items = all.filter((item): item is ChoiceItem => item.kind !== 'open');
  let widest: ChoiceItem | null = null;
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

export function planChurn(
  items: readonly ChurnItem[],
  config: ChurnConfig,
  model: string,
): WorkUnit[] {
  checkLogprobsEstimator(config, items);
  const settings = unitSettings(config);
  const series = new Map<ChatOptions, UnitSeries>();
  const units: WorkUnit[] = [];
  eachSample(items, config, (prompt, mode, sample, options) => {
    let shared = series.get(options);
    if (!shared) {
      shared = { model, mode, sample, options, recorded: recordedOptions(options), settings };
      series.set(options, shared);
    }
    units.push(new ChurnUnit(prompt, shared));
  });
  return units;
}

/**
 * A stochastic sample planned after the first stage (adaptive sampling's later stages), made
 * as the first stage's are.
 */
export function stageUnit(
  item: ChurnItem,
  config: ChurnConfig,
  model: string,
  sample: number,
): WorkUnit {
  const options = slotOptions(config, 'stochastic', sample, tokensOf(item, config));
  const recorded = recordedOptions(options);
  const settings = unitSettings(config);
  return new ChurnUnit(itemPrompt(item), {
    model,
    mode: 'stochastic',
    sample,
    options,
    recorded,
    settings,
  });
}

interface UnitSettings {
  keepText: boolean;
  temperature: number;
  topLogprobs: number;
  /** Adaptive sampling: every unit of an item in one slice of a split plan. */
  groupByItem: boolean;
}

function unitSettings(config: ChurnConfig): UnitSettings {
  const { keepText, temperature, topLogprobs } = config.churn;
  const groupByItem =
    samplingOf(config.churn) === 'adaptive' && config.churn.estimator === 'sampled';
  return { keepText, temperature, topLogprobs, groupByItem };
}

/** What the units of one model and sample index share (one object per sample index). */
interface UnitSeries {
  model: string;
  mode: ChurnSampleSlot['mode'];
  sample: number;
  options: ChatOptions;
  recorded: RecordedOptions;
  settings: UnitSettings;
}

/**
 * One churn sample. A class of two fields (its item's prompt, its sample index's shared
 * settings), its key and request made only when asked: a plan holds one unit per sample
 * (1.6M for a large item set).
 */
class ChurnUnit implements WorkUnit {
  constructor(
    private readonly prompt: ItemPrompt,
    private readonly series: UnitSeries,
  ) {}

  get key(): string {
    return churnUnitKey(this.prompt.item.id, this.series.mode, this.series.sample);
  }

  get check(): 'churn' {
    return 'churn';
  }

  get expectedCalls(): number {
    return 1;
  }

  get group(): string | undefined {
    return this.series.settings.groupByItem ? `churn:${this.prompt.item.id}` : undefined;
  }

  get model(): string {
    return this.series.model;
  }

  get expected(): { promptSha256: string; options: RecordedOptions } {
    return { promptSha256: this.prompt.promptSha256, options: this.series.recorded };
  }

  private matches(record: SampleRecord): boolean {
    return (
      isCall(record) &&
      record.prompt_sha256 === this.prompt.promptSha256 &&
      sameRecordedOptions(record.options, this.series.recorded) &&
      // Exact probabilities hold for one temperature; another one is asked again.
      (this.series.mode !== 'exact' ||
        (record.check === 'churn' &&
          record.estimate_temperature === this.series.settings.temperature))
    );
  }

  isComplete(prior: readonly SampleRecord[]): boolean {
    return prior.some(
      (record) => this.matches(record) && isCall(record) && record.status !== 'error',
    );
  }

  current(records: readonly SampleRecord[]): SampleRecord[] {
    return records.filter((record) => this.matches(record));
  }

  async execute(ctx: UnitContext): Promise<void> {
    if (this.isComplete(ctx.prior)) return;
    const { mode, sample, options, model, settings } = this.series;
    const { keepText, temperature, topLogprobs } = settings;
    const slot = slotOf({ prompt: this.prompt, mode, sample, options }, model, topLogprobs);
    const outcome = await ctx.call(slot.spec);
    await ctx.emit(
      slot.mode === 'exact'
        ? scoreChurnLogprobs(slot, outcome, ctx.digest, keepText, temperature)
        : scoreChurnSample(slot, outcome, ctx.digest, keepText),
    );
  }
}

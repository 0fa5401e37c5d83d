/**
 * Records of the logprobs estimator → churn section. Each item has one p(correct) per model,
 * read from the letter probabilities, with no sampling noise: an item counts as improved or
 * deteriorated when |Δp| reaches churn.min-effect, and there is nothing to test or calibrate
 * against a null. The spread between items still matters for the aggregate Δ, which keeps its
 * interval over items. Pure, like the sampled analysis.
 */
import { mean } from 'simple-statistics';
import { countStatus, emptyStatusCounts } from '../../sampleLog/index.js';
import {
  accuracyAndRequests,
  aggregateDelta,
  type ChurnAnalysisInput,
  domainTable,
  finite,
  otherEstimatorWarning,
  pairedDeltas,
  summariseFlags,
  unknownItemsWarning,
} from './analyseShared.js';
import type { ChurnItem } from './items.js';
import { PROMPT_VERSION } from './prompt.js';
import type {
  EffectClass,
  EffectMethodSection,
  LogprobsChurnSection,
  LogprobsItemRow,
  LogprobsModelSummary,
} from './section.js';
import type { RequestCounts } from './tally.js';
import { type ChurnCallRecord, isChurnCall } from './records.js';

/** |Δp| thresholds the report counts items beyond, besides min-effect itself. */
export const EFFECT_THRESHOLDS = [0.05, 0.1, 0.2, 0.3, 0.5];

/**
 * Δp is a difference of two floating-point probabilities: 0.7 − 0.5 is 0.19999999999999996.
 * A change equal to min-effect up to this much rounding counts as reaching it.
 */
const ROUNDING = 1e-9;

type Source = LogprobsModelSummary['sources'][number];

interface LogprobsTally {
  model: string;
  /** p(correct) per item, NaN when not measured. */
  p: Float64Array;
  /** Whether the most probable letter is correct, null when not measured. */
  topLetter: (boolean | null)[];
  requests: RequestCounts;
  sources: Set<Source>;
}

function tallyLogprobs(input: ChurnAnalysisInput, warnings: string[]): Map<string, LogprobsTally> {
  const { items, settings } = input;
  const index = new Map(items.map((item, i) => [item.id, i]));
  const latest = new Map<string, ChurnCallRecord>();
  let unknownItems = 0;
  let otherTemperature = 0;
  let sampled = 0;
  for (const record of input.records) {
    if (!isChurnCall(record)) continue;
    if (record.model !== input.baseline && record.model !== input.candidate) continue;
    if (record.mode !== 'exact') {
      sampled++;
      continue;
    }
    if (!index.has(record.item)) {
      unknownItems++;
      continue;
    }
    if (record.estimate_temperature !== settings.temperature) {
      otherTemperature++;
      continue;
    }
    latest.set(`${record.model}\u0000${record.item}`, record);
  }
  if (unknownItems > 0) warnings.push(unknownItemsWarning(unknownItems));
  if (otherTemperature > 0) {
    warnings.push(
      `${otherTemperature} logprobs records hold probabilities for another temperature than churn.temperature ${settings.temperature} and are left aside; run again to measure at ${settings.temperature}`,
    );
  }
  if (sampled > 0) warnings.push(otherEstimatorWarning(sampled, 'logprobs'));

  const tallies = new Map<string, LogprobsTally>();
  for (const model of [input.baseline, input.candidate]) {
    if (model === null || tallies.has(model)) continue;
    tallies.set(model, {
      model,
      p: new Float64Array(items.length).fill(Number.NaN),
      topLetter: new Array<boolean | null>(items.length).fill(null),
      requests: emptyStatusCounts(),
      sources: new Set(),
    });
  }
  for (const record of latest.values()) {
    const tally = tallies.get(record.model) as LogprobsTally;
    const i = index.get(record.item) as number;
    countStatus(tally.requests, record.status);
    if (record.estimator) tally.sources.add(record.estimator);
    if (record.status === 'ok' && typeof record.p_correct === 'number') {
      tally.p[i] = record.p_correct;
      tally.topLetter[i] = record.correct;
    }
  }
  for (const tally of tallies.values()) {
    if (tally.sources.size > 1) {
      warnings.push(
        `${tally.model}: probabilities come from more than one source (${[...tally.sources].join(', ')}); the log mixes providers`,
      );
    }
  }
  return tallies;
}

function modelSummary(tally: LogprobsTally): LogprobsModelSummary {
  const measured = [...tally.p].filter(Number.isFinite);
  const top = tally.topLetter.filter((t): t is boolean => t !== null);
  const { accuracy, ...requests } = accuracyAndRequests(measured, tally.requests);
  return {
    model: tally.model,
    sources: [...tally.sources].sort(),
    itemsMeasured: measured.length,
    accuracy,
    topLetterAccuracy: top.length === 0 ? null : top.filter(Boolean).length / top.length,
    ...requests,
  };
}

/** +1 improved, −1 deteriorated, 0 below min-effect or not measured. */
export function effectClasses(deltas: Float64Array, minEffect: number): Int8Array {
  const classes = new Int8Array(deltas.length);
  deltas.forEach((delta, i) => {
    if (!Number.isFinite(delta)) return;
    if (delta >= minEffect - ROUNDING) classes[i] = 1;
    else if (delta <= -minEffect + ROUNDING) classes[i] = -1;
  });
  return classes;
}

function effectSection(
  deltas: Float64Array,
  classes: Int8Array,
  minEffect: number,
): EffectMethodSection {
  const { counted, ...flags } = summariseFlags(classes, deltas, (i) => Number.isFinite(deltas[i]));
  const thresholds = [...new Set([...EFFECT_THRESHOLDS, minEffect])].sort((a, b) => a - b);
  const absolute = [...deltas].filter(Number.isFinite).map(Math.abs);
  return {
    method: 'effect',
    minEffect,
    ...flags,
    measured: counted,
    beyond: thresholds.map((threshold) => ({
      threshold,
      items: absolute.filter((d) => d >= threshold - ROUNDING).length,
    })),
  };
}

function effectName(flag: number, measured: boolean): EffectClass {
  if (!measured) return 'unmeasured';
  return flag > 0 ? 'improved' : flag < 0 ? 'deteriorated' : 'unchanged';
}

export function analyseChurnLogprobs(input: ChurnAnalysisInput): LogprobsChurnSection {
  const { settings, items } = input;
  const warnings = [...(input.warnings ?? [])];
  const tallies = tallyLogprobs(input, warnings);
  const baseline = tallies.get(input.baseline) as LogprobsTally;
  // A/A: the same tag twice compares the model with itself.
  const candidate = input.candidate === null ? null : (tallies.get(input.candidate) ?? null);
  const measuredBy = (tally: LogprobsTally): number => tally.p.filter(Number.isFinite).length;
  const base = {
    check: 'churn' as const,
    estimator: 'logprobs' as const,
    promptVersion: PROMPT_VERSION,
    method: 'effect' as const,
    temperature: settings.temperature,
    minEffect: settings.minEffect,
    baseline: modelSummary(baseline),
    warnings,
  };
  if (candidate === null) {
    const measured = measuredBy(baseline);
    return {
      ...base,
      itemCounts: { total: items.length, measured, unmeasured: items.length - measured },
      candidate: null,
      comparison: null,
    };
  }

  const { deltas, paired, pairedDomains } = pairedDeltas(items, baseline.p, candidate.p);
  const classes = effectClasses(deltas, settings.minEffect);
  const delta = aggregateDelta(paired, pairedDomains, settings.deltaInterval);
  // No sampling noise: a domain lost when its mean Δp reaches max-domain-loss (an effect size,
  // so two identical models, Δp = 0 on every item, never trip it).
  const size = settings.gate.maxDomainLoss / 100 - ROUNDING;
  const overallDirection =
    delta.low !== null && delta.low > 0
      ? 'up'
      : delta.high !== null && delta.high < 0
        ? 'down'
        : null;
  const domains = domainTable(
    items,
    baseline.p,
    candidate.p,
    deltas,
    classes,
    overallDirection,
    (_domain, indices) => {
      const measured = indices.map((i) => deltas[i] as number).filter(Number.isFinite);
      const shift = measured.length === 0 ? 0 : mean(measured);
      const tested = measured.length >= settings.gate.minDomainItems;
      return { test: null, loss: tested && shift <= -size, gain: tested && shift >= size };
    },
  );
  return {
    ...base,
    itemCounts: {
      total: items.length,
      measured: paired.length,
      unmeasured: items.length - paired.length,
    },
    candidate: modelSummary(candidate),
    comparison: {
      delta,
      effect: effectSection(deltas, classes, settings.minEffect),
      domains,
      overallDirection,
      reversals: domains.filter((d) => d.reversal).map((d) => d.domain),
      items: items.map(
        (item: ChurnItem, i): LogprobsItemRow => ({
          id: item.id,
          domain: item.domain,
          p: [finite(baseline.p[i] as number), finite(candidate.p[i] as number)],
          delta: finite(deltas[i] as number),
          effect: effectName(classes[i] as number, Number.isFinite(deltas[i])),
        }),
      ),
    },
  };
}
